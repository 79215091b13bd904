/**
 * API key format. A key is `pr_<id>_<secret>`:
 *   id      12 lowercase hex characters, public (shown in listings, used to look the key up)
 *   secret  43 base64url characters (32 random bytes), shown once at creation
 * e.g. `pr_3f9a0c1d2e4b_q0Zk...`. Only the SHA-256 of the whole key is stored.
 */

import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

export const API_KEY_PREFIX = "pr_";

const KEY_SHAPE = /^pr_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;

export interface ParsedApiKey {
  readonly id: string;
  readonly key: string;
}

/** Splits a presented key into its public id; null when the text is not shaped like a key. */
export function parseApiKey(text: string): ParsedApiKey | null {
  const m = KEY_SHAPE.exec(text);
  return m ? { id: m[1]!, key: text } : null;
}

export function newApiKey(): ParsedApiKey {
  const id = randomBytes(6).toString("hex");
  const key = `${API_KEY_PREFIX}${id}_${randomBytes(32).toString("base64url")}`;
  return { id, key };
}

export const hashKey = (key: string): Buffer => createHash("sha256").update(key).digest();

// Compared even when the id is unknown, so a miss costs the same as a wrong secret.
const DUMMY_HASH = hashKey("pr_000000000000_not-a-key");

/** Constant-time comparison of a presented key with a stored hash (both 32 bytes). */
export function keyMatches(key: string, stored: Uint8Array | null): boolean {
  const presented = hashKey(key);
  const against = stored && stored.length === presented.length ? stored : DUMMY_HASH;
  return timingSafeEqual(presented, against) && against !== DUMMY_HASH;
}

/**
 * Taking an upload: the text checked (text only, within its size cap), parsed in the parse thread, and its
 * hands stored under the key holder (deduplicated by site and hand number). The API's upload link and the
 * MCP tool `upload_hand_history` both come here.
 */

import { randomBytes } from "node:crypto";
import type { HandStore } from "@ranges/access";
import { RangesError } from "@ranges/core";
import { decodeHandHistory } from "@ranges/hand-history";
import type { HandParser } from "./parser.js";

/** Largest file a link takes (bytes). */
export const LINK_UPLOAD_MAX_BYTES = 8 * 1024 * 1024;
/** Largest text `upload_hand_history` takes inline (characters): the MCP request itself is capped at 1 MiB. */
export const INLINE_UPLOAD_MAX_CHARS = 400_000;
/** Longest screen name taken as `hero`. */
export const MAX_HERO_LENGTH = 50;

export interface UploadReport {
  uploadId: string;
  via: "link" | "inline";
  bytes: number;
  /** Hands read from the text. */
  hands: number;
  stored: number;
  duplicates: number;
  /** Not stored: the key holder reached the most hands a key may keep. */
  refused: number;
  /** Hands whose hero is known (the history's `Dealt to`, or the `hero` named with the upload). */
  withHero: number;
  /** What the uploader should know (an unknown `hero`, bounty tournaments), in words a player understands. */
  warnings: string[];
  /** Hands that could not be read, and the first of them. */
  errors: number;
  errorSamples: { handId: string | null; line: number; message: string; text: string }[];
  sites: Record<string, number>;
  from: string | null;
  to: string | null;
  /** Hands the key holder keeps now, and the most a key may keep. */
  totalHands: number;
  maxHands: number;
  /** Time the parse thread took: reading the hands, and the all-in equities. */
  parseMs: number;
  equityMs: number;
}

const clip = (s: string, n = 80): string => (s.length > n ? `${s.slice(0, n)}…` : s);

/**
 * The text of an uploaded file: UTF-8 (with or without a byte order mark), UTF-16 (with a byte order mark,
 * or recognised by its zero bytes), or else the Windows code page 1252 of older poker clients
 * (`decodeHandHistory`). Broken UTF-16, or a NUL byte, is not a hand-history text: a 415 that says so.
 */
export function decodeUploadText(bytes: Uint8Array): string {
  let text: string;
  try {
    text = decodeHandHistory(bytes).text;
  } catch (error) {
    throw new RangesError(
      "unsupported_media_type",
      `The file is not text: ${(error as Error).message}. Hand histories are the text (.txt, or iPoker .xml) files the poker sites export.`,
    );
  }
  const nul = text.indexOf("\u0000");
  if (nul >= 0) {
    throw new RangesError(
      "unsupported_media_type",
      `The file is not text: it holds a NUL byte (character ${nul + 1}). Upload the hand-history .txt files the sites export.`,
    );
  }
  return text;
}

/** A declared screen name: trimmed, 1 to 50 characters, no line breaks; null when absent. */
export function heroName(raw: string | null | undefined): string | null {
  if (raw === undefined || raw === null) return null;
  const name = raw.trim();
  if (name.length === 0) return null;
  if (
    name.length > MAX_HERO_LENGTH ||
    name.includes("\n") ||
    name.includes("\r") ||
    name.includes("\u0000")
  ) {
    throw new RangesError(
      "invalid_parameter",
      `hero must be your screen name as the histories write it, 1 to ${MAX_HERO_LENGTH} characters on one line.`,
      { parameter: "hero" },
    );
  }
  return name;
}

export interface HandUploadsOptions {
  /** Lifetime of upload links in seconds (default 900). */
  linkTtlSeconds?: number;
}

/** Upload links and uploads for the servers: the store of hands and the parse thread. */
export class HandUploads {
  readonly linkTtlSeconds: number;

  constructor(
    readonly hands: HandStore,
    readonly parser: HandParser,
    o: HandUploadsOptions = {},
  ) {
    this.linkTtlSeconds = o.linkTtlSeconds ?? 900;
  }

  /** Parses a text off the request thread and stores its hands under `keyId`. */
  async ingest(
    keyId: string,
    text: string,
    hero: string | null,
    via: "link" | "inline",
  ): Promise<UploadReport> {
    const bytes = Buffer.byteLength(text);
    if (text.trim().length === 0) {
      throw new RangesError("invalid_parameter", "The upload is empty: send the text of hand-history files.");
    }
    let parsed: Awaited<ReturnType<HandParser["parse"]>>;
    try {
      parsed = await this.parser.parse(text, hero);
    } catch (error) {
      throw new RangesError(
        "internal_error",
        `The hand histories could not be parsed (${clip((error as Error).message)}). Retry; if it fails again, send a smaller file.`,
      );
    }
    if (parsed.hands === 0) {
      const first = parsed.errorSamples[0];
      throw new RangesError(
        "invalid_parameter",
        first
          ? `No hand could be read (${parsed.errors} ${parsed.errors === 1 ? "hand" : "hands"} failed). First: line ${first.line}: ${first.message} (${clip(first.text, 60)}).`
          : "No hand history found: the text has no hand of a supported site (PokerStars, GGPoker, 888poker, Winamax, partypoker, iPoker).",
        {
          errors: parsed.errorSamples.map((e) => ({ line: e.line, handId: e.handId, message: e.message })),
        },
      );
    }
    const uploadId = `up_${randomBytes(8).toString("hex")}`;
    const result = await this.hands.insert(keyId, uploadId, parsed.rows);
    const sites: Record<string, number> = {};
    let from: string | null = null;
    let to: string | null = null;
    for (const r of parsed.rows) {
      sites[r.site] = (sites[r.site] ?? 0) + 1;
      if (from === null || r.playedAt < from) from = r.playedAt;
      if (to === null || r.playedAt > to) to = r.playedAt;
    }
    return {
      uploadId,
      via,
      bytes,
      hands: parsed.hands,
      stored: result.stored,
      duplicates: result.duplicates,
      refused: result.refused,
      withHero: parsed.withHero,
      warnings: parsed.warnings,
      errors: parsed.errors,
      errorSamples: parsed.errorSamples.map((e) => ({
        handId: e.handId,
        line: e.line,
        message: e.message,
        text: clip(e.text),
      })),
      sites,
      from,
      to,
      totalHands: result.total,
      maxHands: this.hands.maxHandsPerKey,
      parseMs: parsed.parseMs,
      equityMs: parsed.equityMs,
    };
  }
}

/**
 * The client address a request is metered and logged under, the same for the API and the standalone MCP
 * server (both read TRUST_PROXY through `compileTrustProxy`).
 *
 * `X-Forwarded-For` is read only when the direct peer is a trusted proxy (TRUST_PROXY lists them): the list
 * is walked from the right, each hop being the address the trusted hop after it saw, and the first address
 * that is not itself trusted is the client. A peer that is not trusted is the client, whatever it sends.
 * Addresses are normalized before they are matched or metered: a port is dropped (`1.2.3.4:5678`,
 * `[2001:db8::1]:443`), an IPv4-mapped IPv6 address is the IPv4 address, IPv6 is written in one canonical
 * form. Matching addresses against the list is proxy-addr's (the module Express uses for `trust proxy`).
 */

import { isIP, isIPv4 } from "node:net";
import ipaddr from "ipaddr.js";
import proxyaddr from "proxy-addr";

/** True when an (already normalized) address is a trusted proxy. */
export type TrustProxy = (address: string) => boolean;

const NONE = /^(0|false|no|off|none)$/i;
const LEGACY = /^(1|true|yes|on)$/i;
const FORMAT =
  "give the proxies' addresses, comma-separated: single addresses (10.0.0.2, 2001:db8::2), CIDR ranges (10.0.0.0/8, fd00::/8) or the names loopback, linklocal and uniquelocal";

/**
 * The trust function for a TRUST_PROXY value (a comma-separated string or a list); null when nothing is
 * trusted (unset, empty, `0`, `false`, `none`). Throws an Error naming the bad entry for anything else that
 * is not an address or a range, including the former `1`/`true`, which trusted every peer.
 */
export function compileTrustProxy(value: string | readonly string[] | undefined): TrustProxy | null {
  const list = (typeof value === "string" ? value.split(",") : (value ?? []))
    .map((s) => s.trim())
    .filter((s) => s !== "");
  if (list.length === 0 || (list.length === 1 && NONE.test(list[0]!))) return null;
  const legacy = list.find((s) => LEGACY.test(s));
  if (legacy !== undefined) {
    throw new Error(
      `TRUST_PROXY=${legacy} would trust X-Forwarded-For from any peer, so any client could choose its own address; ${FORMAT}.`,
    );
  }
  // proxy-addr reads entries through ipaddr.js, which takes "2" for 0.0.0.2 and "0x0a.1" for 10.0.0.1: each
  // entry is checked strictly first, so that a hop count or a typo is refused instead of trusting some other
  // address.
  for (const entry of list) {
    if (!validEntry(entry)) {
      const what = /^\d+$/.test(entry) ? " (a count of hops is not supported)" : "";
      throw new Error(
        `TRUST_PROXY: "${entry.slice(0, 64)}" is not an IP address, a CIDR range or a name${what}; ${FORMAT}.`,
      );
    }
  }
  let trust: (address: string, hop: number) => boolean;
  try {
    trust = proxyaddr.compile(list);
  } catch (error) {
    throw new Error(`TRUST_PROXY: ${(error as Error).message}; ${FORMAT}.`);
  }
  return (address) => trust(address, 0);
}

const NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

/** A TRUST_PROXY entry: a name, or an address in strict notation with an optional prefix length or netmask. */
function validEntry(entry: string): boolean {
  if (NAMES.has(entry)) return true;
  const slash = entry.indexOf("/");
  const address = slash < 0 ? entry : entry.slice(0, slash);
  const family = isIP(address);
  if (family === 0) return false;
  if (slash < 0) return true;
  const range = entry.slice(slash + 1);
  if (/^\d{1,3}$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  return family === 4 && isIPv4(range);
}

const PORT = /^:\d{1,5}$/;
const V4_PORT = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/;

/**
 * One address as written by a peer or a proxy, normalized: brackets, port and IPv6 zone removed, IPv4-mapped
 * IPv6 unwrapped, IPv6 in canonical form. Null when it is not an IP address (`unknown`, `_hidden`, a name).
 */
export function normalizeAddress(raw: string): string | null {
  let text = raw.trim();
  if (isIPv4(text)) return text;
  if (text.startsWith("[")) {
    const end = text.indexOf("]");
    if (end < 0 || (end + 1 < text.length && !PORT.test(text.slice(end + 1)))) return null;
    text = text.slice(1, end);
  } else {
    const v4 = V4_PORT.exec(text);
    if (v4) text = v4[1]!;
  }
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  // node:net is strict (no octal or hex IPv4 forms); ipaddr.js gives the canonical text.
  if (isIP(text) === 0) return null;
  return ipaddr.process(text).toString();
}

/** The client address of a request whose direct peer is `peer`. */
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | string[] | undefined,
  trust: TrustProxy | null,
): string {
  const direct = peer === undefined ? null : normalizeAddress(peer);
  if (direct === null) return peer || "unknown";
  if (trust === null || forwardedFor === undefined || !trust(direct)) return direct;
  const hops = (typeof forwardedFor === "string" ? forwardedFor : forwardedFor.join(",")).split(",");
  let client = direct;
  for (let i = hops.length - 1; i >= 0; i--) {
    // A hop that is not an address (a proxy's "unknown", an obfuscated name) ends the walk: the client is
    // the last address a trusted hop vouched for.
    const hop = normalizeAddress(hops[i]!);
    if (hop === null) break;
    client = hop;
    if (!trust(hop)) break;
  }
  return client;
}

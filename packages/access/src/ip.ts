/**
 * The subject the keyless allowance counts for an address. IPv4 counts per address (IPv4-mapped IPv6 is
 * unwrapped). IPv6 counts per /64, because one client usually holds a whole /64 and could otherwise rotate
 * addresses to reset its allowance.
 */

import { isIPv4, isIPv6 } from "node:net";

export function ipSubject(ip: string): string {
  let text = ip.trim();
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(text);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  if (isIPv4(text)) return text;
  if (isIPv6(text)) {
    const groups = expandIPv6(text);
    if (groups) return `${groups.slice(0, 4).join(":")}::/64`;
  }
  // Unknown shapes still count, under their own (bounded) text.
  return text.slice(0, 64) || "unknown";
}

/** The eight 16-bit groups of an IPv6 address as 4-digit hex, or null. */
function expandIPv6(text: string): string[] | null {
  let body = text.toLowerCase();
  // A trailing dotted IPv4 is two groups.
  const v4 = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(body);
  if (v4) {
    const parts = v4[1]!.split(".").map(Number);
    const hi = ((parts[0]! << 8) | parts[1]!).toString(16);
    const lo = ((parts[2]! << 8) | parts[3]!).toString(16);
    body = `${body.slice(0, v4.index)}${hi}:${lo}`;
  }
  const halves = body.split("::");
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const fill = 8 - head.length - tail.length;
  if (fill < 0 || (halves.length === 1 && fill !== 0)) return null;
  const groups = [...head, ...new Array<string>(fill).fill("0"), ...tail];
  return groups.map((g) => g.padStart(4, "0"));
}

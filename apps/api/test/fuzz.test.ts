/**
 * No input yields a 5xx. Each parameter gets ~300 fast-check runs of raw strings (stray `%`, parentheses,
 * unicode, control characters, huge and empty values, and near-miss action paths) sent both as written
 * into the URL and percent-encoded. A 200 must validate against its schema, anything else must be a 4xx
 * with the error body.
 */

import { ErrorBodySchema, NodeSchema, RangeSchema } from "@ranges/schema";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixturePacksDir, start, type TestServer } from "./helpers.js";

let t: TestServer;
let removePacks: () => void;
let auth: { Authorization: string };

beforeAll(async () => {
  // Only good packs: a corrupt pack answers 503 by design, which is not what this test is about.
  const p = await fixturePacksDir(false);
  removePacks = p.remove;
  t = await start({ packsDir: p.dir, keylessDailyLimit: 1_000_000 });
  auth = { Authorization: `Bearer ${(await t.access.createKey({ name: "fuzz" })).key}` };
});
afterAll(async () => {
  await t.close();
  removePacks();
});

const SEGMENTS = [
  "UTG",
  "UTG1",
  "UTG2",
  "LJ",
  "HJ",
  "CO",
  "BTN",
  "SB",
  "BB",
  "Fold",
  "Call",
  "Limp",
  "AI",
  "Open",
  "3B",
  "4B",
  "5B",
  "Open-2",
  "60%",
  "60%25",
  "100%25",
  "33.5%25",
  "0%25",
  "Raise",
  "",
  "%",
  "%2",
  "%ZZ",
  "%28",
  "%29",
  "(",
  ")",
  "(AK)",
  "AKs",
  "AhKh",
  "%E2%82%AC",
  "€",
  "🂡",
  "\u0000",
  "+",
  " ",
  "&",
  "=",
  "#",
  "?",
];

/** Raw strings likely to break a naive parser. */
const rawValue = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme", maxLength: 30 }),
  fc.string({ unit: "binary", maxLength: 30 }),
  fc.array(fc.constantFrom(...SEGMENTS), { maxLength: 12 }).map((xs) => xs.join("_")),
  fc.array(fc.constantFrom(...SEGMENTS), { maxLength: 6 }).map((xs) => xs.join("")),
  fc.constantFrom(
    "",
    "%",
    "%%",
    "%2",
    "%G0",
    "%C3%28",
    "%E0%A4%A",
    "%FF",
    "(",
    ")",
    "()",
    "NaN",
    "-0",
    "1e3",
  ),
  fc.constantFrom("Infinity", "0x10", " 100", "100 ", "0", "0.0000001", "1.0000001", "99999999999999999999"),
  fc.string({ minLength: 2000, maxLength: 20_000 }),
  fc.nat().map(String),
  fc.double().map(String),
);

/** The value as written into the URL (fetch normalizes what it must) or percent-encoded. */
const sent = fc.tuple(rawValue, fc.boolean()).map(([v, encode]) => (encode ? encodeURIComponent(v) : v));

type Case = {
  path: string;
  param: string;
  base: Record<string, string>;
  schema: typeof NodeSchema | typeof RangeSchema;
};

const CASES: Case[] = [
  { path: "/api/v1/ranges/nl/v2/node", param: "history", base: { stack: "100" }, schema: NodeSchema },
  { path: "/api/v1/ranges/nl/range", param: "spot", base: { stack: "100" }, schema: RangeSchema },
  {
    path: "/api/v1/ranges/plo/node",
    param: "hand",
    base: { stack: "100", history: "UTG" },
    schema: NodeSchema,
  },
  { path: "/api/v1/ranges/nlmtt8/node", param: "stack", base: { history: "UTG" }, schema: NodeSchema },
  {
    path: "/api/v1/ranges/nl/node",
    param: "minFreq",
    base: { stack: "100", history: "UTG_Fold_HJ" },
    schema: NodeSchema,
  },
];

describe("fuzz: no input yields a 5xx", () => {
  for (const c of CASES) {
    it(`${c.param} on ${c.path}`, async () => {
      const statuses = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(sent, async (value) => {
          const query = Object.entries(c.base)
            .map(([k, v]) => `${k}=${v}`)
            .concat(`${c.param}=${value}`)
            .join("&");
          let url: string;
          try {
            url = new URL(`${t.base}${c.path}?${query}`).href;
          } catch {
            return; // Not a URL any client could send.
          }
          const res = await fetch(url, { headers: auth });
          const text = await res.text();
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          expect(res.status, `${url}\n${text.slice(0, 300)}`).toBeLessThan(500);
          const body = JSON.parse(text);
          if (res.status === 200) c.schema.parse(body);
          else expect(ErrorBodySchema.safeParse(body).success, text.slice(0, 300)).toBe(true);
        }),
        { numRuns: 300 },
      );
      // The generators must reach both answers, or the property proves little.
      expect([...statuses.keys()].some((s) => s >= 400)).toBe(true);
    });
  }
});

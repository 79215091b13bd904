/**
 * Every read the READMEs show, run as written against the committed packs over real HTTP: each `curl` of
 * README.md and apps/api/README.md (its host swapped for the test server's, `pr_...` for a real key) and each
 * plain `GET /api/...` path in backticks (paths with `{placeholders}` belong to examples that create what they
 * read, tested in solves.test.ts). Every one answers 200 with JSON; the ones the README says need a key answer
 * 401 without it, the others 200.
 */

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getJson, start, type TestServer } from "./helpers.js";

const ROOT = new URL("../../../", import.meta.url);
const PACKS_DIR = fileURLToPath(new URL("data/packs", ROOT));
const FILES = ["README.md", "apps/api/README.md"];

interface Example {
  readonly file: string;
  readonly path: string;
  readonly keyed: boolean;
}

/** The examples of one README: curl commands (continuation lines joined) and backticked GET paths. */
function examplesOf(file: string): Example[] {
  const text = readFileSync(new URL(file, ROOT), "utf8").replace(/\\\n\s*/g, " ");
  const out: Example[] = [];
  for (const m of text.matchAll(/^curl ([^\n]*)$/gm)) {
    const line = m[1]!;
    if (/--data|-X |POST|DELETE/.test(line)) continue;
    const url = /'(http:\/\/localhost:3000[^']*)'/.exec(line)?.[1];
    if (!url) continue;
    out.push({ file, path: url.slice("http://localhost:3000".length), keyed: line.includes("Bearer") });
  }
  for (const m of text.matchAll(/`GET (\/api\/[^`\s]*)`/g)) {
    const path = m[1]!;
    if (path.includes("{") || path.includes("|") || path.endsWith("...")) continue;
    // Keyed when the README says so in the rest of the sentence ("both need a key"), unless it says keyless.
    const rest = text.slice(m.index! + m[0].length).split(/\.\s/)[0]!;
    const keyed = !rest.trimStart().startsWith("(keyless)") && /needs? a key/.test(rest);
    out.push({ file, path, keyed });
  }
  return out;
}

let t: TestServer;
let key: string;

beforeAll(async () => {
  t = await start({ packsDir: PACKS_DIR, keylessDailyLimit: 100_000 });
  key = (await t.access.createKey({ name: "readme" })).key;
});
afterAll(async () => {
  await t.close();
});

describe("the READMEs' read examples", () => {
  const examples = FILES.flatMap(examplesOf);

  it("finds the curl examples and the plain GET paths", () => {
    expect(examples.filter((e) => e.file === "README.md").length).toBeGreaterThanOrEqual(6);
    expect(examples.some((e) => e.keyed)).toBe(true);
  });

  it.each(examples.map((e) => [`${e.file}: ${e.path}`, e] as const))(
    "%s answers 200 with JSON",
    async (_, e) => {
      const res = await getJson(
        `${t.base}${e.path}`,
        e.keyed ? { headers: { authorization: `Bearer ${key}` } } : {},
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/application\/json/);
      expect(res.body).toBeTypeOf("object");
    },
  );

  it("the keyed examples need their key, the others do not", async () => {
    for (const e of examples) {
      const res = await getJson(`${t.base}${e.path}`);
      expect(res.status, `${e.file}: ${e.path}`).toBe(e.keyed ? 401 : 200);
    }
  });
});

/**
 * Responses are compressed as `Accept-Encoding` asks (issue 28 item 7): brotli or gzip for the OpenAPI
 * document and the site's JavaScript, nothing without the header; source maps are not served.
 */

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { get } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chooseEncoding } from "../src/http/compress.js";
import { fixturePacksDir, start, type TestServer } from "./helpers.js";

let t: TestServer;
let packs: { dir: string; remove: () => void };
let site: string;
// A bundle as a build writes it: repetitive text, far over the 1 KiB threshold.
const BUNDLE = `${Array.from({ length: 400 }, (_, i) => `export const value${i} = "cell ${i % 13}";`).join("\n")}\n//# sourceMappingURL=app-1a2b.js.map\n`;

beforeAll(async () => {
  packs = await fixturePacksDir(false);
  site = mkdtempSync(join(tmpdir(), "api-site-"));
  mkdirSync(join(site, "assets"));
  writeFileSync(join(site, "index.html"), "<!doctype html><title>ranges</title>");
  writeFileSync(join(site, "assets", "app-1a2b.js"), BUNDLE);
  writeFileSync(
    join(site, "assets", "app-1a2b.js.map"),
    JSON.stringify({ version: 3, sources: ["src/app.ts"] }),
  );
  t = await start({ packsDir: packs.dir, webRoot: site });
});
afterAll(async () => {
  await t.close();
  packs.remove();
  rmSync(site, { recursive: true, force: true });
});

/** GET with exactly the headers given (fetch adds and undoes Accept-Encoding itself). */
function rawGet(path: string, headers: Record<string, string>) {
  return new Promise<{
    status: number;
    headers: Record<string, string | string[] | undefined>;
    body: Buffer;
  }>((resolve, reject) => {
    const req = get(`${t.base}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on("error", reject);
  });
}

describe("compression", () => {
  it.each([
    ["gzip, br", "br", brotliDecompressSync],
    ["gzip, deflate", "gzip", gunzipSync],
    ["br;q=0, gzip", "gzip", gunzipSync],
  ] as const)("openapi.json with Accept-Encoding %s comes as %s", async (accept, encoding, decode) => {
    const plain = await rawGet("/api/v1/openapi.json", {});
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toMatch(/Accept-Encoding/i);
    const packed = await rawGet("/api/v1/openapi.json", { "accept-encoding": accept });
    expect(packed.status).toBe(200);
    expect(packed.headers["content-encoding"]).toBe(encoding);
    expect(packed.body.length).toBeLessThan(plain.body.length / 4);
    expect(decode(packed.body).equals(plain.body)).toBe(true);
    expect(JSON.parse(plain.body.toString("utf8")).openapi).toMatch(/^3\./);
  });

  it("compresses the site's JavaScript, and the second answer is the same bytes", async () => {
    const first = await rawGet("/assets/app-1a2b.js", { "accept-encoding": "br, gzip" });
    expect(first.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(first.body).toString("utf8")).toBe(BUNDLE);
    const again = await rawGet("/assets/app-1a2b.js", { "accept-encoding": "br, gzip" });
    expect(again.body.equals(first.body)).toBe(true);
  });

  it("does not serve source maps", async () => {
    const res = await rawGet("/assets/app-1a2b.js.map", {});
    expect(res.status).toBe(404);
    expect(res.body.toString("utf8")).not.toContain("sources");
  });

  it("leaves small answers and identity-only clients alone", async () => {
    const small = await rawGet("/healthz", { "accept-encoding": "gzip, br" });
    expect(small.headers["content-encoding"]).toBeUndefined();
    const identity = await rawGet("/api/v1/openapi.json", { "accept-encoding": "identity" });
    expect(identity.headers["content-encoding"]).toBeUndefined();
  });

  it.each([
    [undefined, null],
    ["", null],
    ["gzip", "gzip"],
    ["br", "br"],
    ["*", "br"],
    ["gzip;q=1, br;q=0.5", "gzip"],
    ["br;q=0, gzip;q=0", null],
    ["deflate", null],
  ])("chooses %j as %j", (header, expected) => {
    expect(chooseEncoding(header)).toBe(expected);
  });
});

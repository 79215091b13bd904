/** The web site served at /: pages as index.html with a CSP, hashed assets cached, nothing outside dist. */

import { readdirSync } from "node:fs";
import { join } from "node:path";
import { webRoot } from "@ranges/web";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixturePacksDir, start, type TestServer } from "./helpers.js";

let server: TestServer;
let removePacks: () => void;

beforeAll(async () => {
  const packs = await fixturePacksDir(false);
  removePacks = packs.remove;
  server = await start({ packsDir: packs.dir, webRoot });
});
afterAll(async () => {
  await server?.close();
  removePacks?.();
});

describe("web site", () => {
  it("serves the pages as index.html with a Content-Security-Policy", async () => {
    for (const path of [
      "/",
      "/account",
      "/account/keys",
      "/oauth/interaction/abc_DEF-123",
      "/?game=nl/v2&stack=100",
      "/?game=plo&stack=100&history=UTG",
      "/postflop",
      "/postflop?pack=srp-btn-bb-100bb&board=AsQh6d&path=",
    ]) {
      const res = await fetch(`${server.base}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(res.headers.get("cache-control")).toBe("no-cache");
      expect(res.headers.get("content-security-policy")).toContain("default-src 'self'");
      expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      expect(await res.text()).toContain('<div id="app">');
    }
  });

  it("serves hashed assets for a year and nothing outside the build", async () => {
    const asset = readdirSync(join(webRoot, "assets")).find((f) => f.endsWith(".js"))!;
    const res = await fetch(`${server.base}/assets/${asset}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    for (const path of [
      "/assets/nope.js",
      "/../package.json",
      "/%2e%2e/package.json",
      "/assets/..%2f..%2flocate.js",
      "/nope",
      "/postflop/nope",
    ]) {
      const r = await fetch(`${server.base}${path}`);
      expect(r.status, path).toBe(404);
      expect(r.headers.get("content-type")).toContain("application/json");
    }
    // POST on a page is not the site's: 404/405, never a page.
    const post = await fetch(`${server.base}/account`, { method: "POST" });
    expect(post.status).toBeGreaterThanOrEqual(404);
  });
});

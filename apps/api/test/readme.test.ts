/**
 * Every read the READMEs show, run as written against the committed packs over real HTTP (the examples are
 * read out of the README text by readme-examples.ts):
 * - each `curl` of README.md and apps/api/README.md (its host swapped for the test server's, `pr_...` for a
 *   real key), each plain `GET /api/...` path in backticks (paths with `{placeholders}` belong to examples
 *   that create what they read, tested in solves.test.ts) and packages/schema's `fetch`: 200 with JSON, and
 *   the ones the README says need a key 401 without it;
 * - the web site's addresses (`http://localhost:3000/account`) and deep links (`/?game=...&history=...`,
 *   `/postflop?pack=...`): the page is served, and the read the page makes for the link answers 200;
 * - the GET rows of apps/api/README.md's route table without placeholders: keyless and "none" rows 200 (or
 *   400 `missing_parameter` where the route takes a query the table does not show), rows that need a key or
 *   a session 401 without one.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PostflopPacks } from "@ranges/postflop";
import { SolutionPacks, SolveQueue } from "@ranges/queue";
import { webRoot } from "@ranges/web";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, freePort, getJson, start, type TestServer } from "./helpers.js";
import { pagesOf, READMES, ROOT, readsOf, routesOf } from "./readme-examples.js";

const DATA = fileURLToPath(new URL("data/", ROOT));

let t: TestServer;
let key: string;
let solutionsDir: string;
let solutions: SolutionPacks | undefined;

beforeAll(async () => {
  // As `pnpm start` serves: with the solve queue (in the server's account database, attached after start).
  solutionsDir = mkdtempSync(join(tmpdir(), "api-readme-"));
  let queue: SolveQueue | undefined;
  const solves = {
    get queue() {
      return queue!;
    },
    get solutions() {
      return solutions!;
    },
  };
  t = await start({
    solves,
    packsDir: `${DATA}packs`,
    keylessDailyLimit: 100_000,
    webRoot,
    postflop: PostflopPacks.open({ dir: `${DATA}postflop` }),
    oauth: true,
    port: await freePort(),
  });
  queue = await SolveQueue.open(t.access.database);
  solutions = new SolutionPacks(queue, solutionsDir);
  key = (await t.access.createKey({ name: "readme" })).key;
});
afterAll(async () => {
  await solutions?.close();
  await t.close();
  rmSync(solutionsDir, { recursive: true, force: true });
});

describe("the READMEs' read examples", () => {
  const examples = READMES.flatMap(readsOf);

  it("finds the curl examples, the plain GET paths and the package's fetch", () => {
    expect(examples.filter((e) => e.file === "README.md").length).toBeGreaterThanOrEqual(6);
    expect(examples.some((e) => e.keyed)).toBe(true);
    expect(examples.some((e) => e.file === "packages/schema/README.md")).toBe(true);
  });

  it.each(examples.map((e) => [`${e.file}: ${e.path}`, e] as const))(
    "%s answers 200 with JSON",
    async (_, e) => {
      const res = await getJson(`${t.base}${e.path}`, e.keyed ? bearer(key) : {});
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

describe("the READMEs' web site addresses and deep links", () => {
  const pages = READMES.flatMap(pagesOf);

  it("finds the pages and the viewer's and board browser's deep links", () => {
    const paths = pages.map((p) => p.path);
    expect(paths).toEqual(expect.arrayContaining(["/", "/postflop", "/account"]));
    expect(pages.filter((p) => p.read).length).toBeGreaterThanOrEqual(3);
    expect(paths.some((p) => p.startsWith("/postflop?"))).toBe(true);
  });

  it.each(pages.map((p) => [`${p.file}: ${p.path}`, p] as const))("%s is served", async (_, p) => {
    const res = await fetch(`${t.base}${p.path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    if (!p.read) return;
    // The read the page makes for the link: the README says the games other than nl and nl/v2, and the
    // postflop reads, need a key.
    const read = await getJson(`${t.base}${p.read.path}`, p.read.keyed ? bearer(key) : {});
    expect(read.status, `${p.read.path}: ${read.text.slice(0, 300)}`).toBe(200);
    if (p.read.path.startsWith("/api/v1/postflop/")) {
      // A link to a board the pack has not solved would show an "unsupported" page.
      expect((read.body as { coverage: { status: string } }).coverage.status).toBe("exact");
    } else {
      expect(read.body).toMatchObject({ actor: expect.any(String), actions: expect.any(Array) });
    }
    if (p.read.keyed) expect((await getJson(`${t.base}${p.read.path}`)).status).toBe(401);
  });
});

describe("apps/api/README.md's route table", () => {
  const rows = routesOf("apps/api/README.md").filter((r) => r.method === "GET");
  const concrete = rows.flatMap((r) =>
    r.paths.filter((p) => !p.includes("{") && !p.endsWith("...")).map((path) => ({ path, access: r.access })),
  );

  it("finds the GET rows", () => {
    expect(rows.length).toBeGreaterThanOrEqual(10);
    expect(concrete.map((c) => c.path)).toEqual(
      expect.arrayContaining(["/api/v1/ranges/games", "/healthz", "/account", "/api/v1/account/keys"]),
    );
  });

  it.each(concrete.map((c) => [`${c.path} (${c.access})`, c] as const))("%s", async (_, c) => {
    const res = await fetch(`${t.base}${c.path}`);
    const text = await res.text();
    if (/^(keyless|none)\b/.test(c.access)) {
      // The table names routes, not whole requests: one that needs a query parameter says which.
      if (res.status === 400) expect(JSON.parse(text).error.code).toBe("missing_parameter");
      else expect(res.status, text.slice(0, 300)).toBe(200);
    } else if (/^(key|session)\b/.test(c.access)) expect(res.status, text.slice(0, 300)).toBe(401);
    else throw new Error(`a Key column the test does not know: ${c.access}`);
  });
});

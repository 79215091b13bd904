/**
 * The READMEs' examples that are not plain reads, run as written (read out of the README text by
 * readme-examples.ts) against the API over real HTTP, as `pnpm start` serves it (SQLite account database,
 * OAuth, the MCP endpoint, hand uploads):
 * - every `pnpm ranges ...` command (README.md, apps/api/README.md) through the CLI's own entry point on the
 *   server's account database: the keys it creates serve the README's keyed read, a revoked one is refused,
 *   an import writes a pack (to a temporary `--out`, never to data/packs);
 * - apps/mcp/README.md: the TypeScript SDK snippet, the client configuration entry, each MCP Inspector CLI
 *   call (made with the SDK's client, arguments converted to the tool's input schema types as the Inspector
 *   does; on the mounted endpoint and on the standalone server), and the OAuth challenge with its metadata
 *   document;
 * - the upload `curl` (README.md, apps/mcp/README.md): a link from `get_upload_link`, a file POSTed with the
 *   README's headers.
 */

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { AccessStore, HandStore } from "@ranges/access";
import { HandParser, HandUploads } from "@ranges/hand-analysis";
import { startMcpServer } from "@ranges/mcp";
import { HandUploadSchema } from "@ranges/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../src/commands.js";
import { bearer, freePort, getJson, start, type TestServer } from "./helpers.js";
import {
  type CliExample,
  clientEntryOf,
  cliOf,
  inspectorOf,
  READMES,
  ROOT,
  readme,
  readsOf,
  SITE,
  sdkCallOf,
  uploadsOf,
} from "./readme-examples.js";

const DATA = fileURLToPath(new URL("data/", ROOT));
/** The first keyed read of README.md's "Try it" (a game that is not free). */
const KEYED_READ = readsOf("README.md").find((r) => r.keyed)!.path;
const MCP_README = "apps/mcp/README.md";

let dir: string;
let t: TestServer;
let parser: HandParser;
let key: string;
const saved = { ACCESS_DB: process.env.ACCESS_DB, DATABASE_URL: process.env.DATABASE_URL };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "api-readme-tools-"));
  // The CLI and the server share the account database, as `pnpm ranges keys` and `pnpm start` do.
  process.env.ACCESS_DB = join(dir, "access.sqlite");
  delete process.env.DATABASE_URL;
  parser = new HandParser({ idleMs: 500 });
  const access = await AccessStore.open(process.env.ACCESS_DB, { keylessDailyLimit: 100_000 });
  t = await start({
    packsDir: `${DATA}packs`,
    accessStore: access,
    oauth: true,
    port: await freePort(),
    hands: new HandUploads(new HandStore(access.database), parser),
  });
  key = (await t.access.createKey({ name: "readme-tools" })).key;
});
afterAll(async () => {
  await t?.close();
  await parser?.close();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  rmSync(dir, { recursive: true, force: true });
});

/** The README's origin is the test server's; `pr_...` is a real key. */
const here = (text: string, withKey = key) => text.replaceAll(SITE, t.base).replaceAll("pr_...", withKey);

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("the READMEs' pnpm ranges commands", () => {
  const examples = READMES.flatMap(cliOf);
  const named = (e: CliExample) => e.short.slice(0, 2).join(" ");

  it("finds them, and runs every one it finds", () => {
    expect(examples.filter((e) => named(e) === "keys create").length).toBeGreaterThanOrEqual(2);
    const known = ["keys create", "keys list", "keys revoke", "import monker", "worker"];
    for (const e of examples) expect(known, `${e.file}: pnpm ranges ${e.full.join(" ")}`).toContain(named(e));
  });

  it("keys create, list and revoke: the keys serve the keyed read until revoked", async () => {
    const creates = examples.filter((e) => named(e) === "keys create").flatMap((e) => [e.short, e.full]);
    const made: string[] = [];
    for (const argv of creates) {
      const r = await cli(argv);
      expect(r.code, `${argv.join(" ")}: ${r.err}`).toBe(0);
      const created = r.out.split("\n").at(-1)!;
      expect(created).toMatch(/^pr_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
      made.push(created);
      expect((await getJson(`${t.base}${KEYED_READ}`, bearer(created))).status).toBe(200);
    }
    for (const e of examples.filter((x) => named(x) === "keys list")) {
      const r = await cli(e.full);
      expect(r.code).toBe(0);
      for (const k of made) expect(r.out).toContain(k.slice(0, 15));
    }
    const revokes = examples.filter((e) => named(e) === "keys revoke");
    expect(revokes.length).toBeGreaterThan(0);
    for (const [i, e] of revokes.entries()) {
      const id = made[i]!.slice(3, 15);
      const r = await cli(e.full.map((w) => (w === "<id>" ? id : w)));
      expect(r.code, r.err).toBe(0);
      // Another connection's revocation applies from the server's next event-loop turn.
      await new Promise((resolve) => setImmediate(resolve));
      expect((await getJson(`${t.base}${KEYED_READ}`, bearer(made[i]!))).status).toBe(401);
    }
  });

  it("import monker writes the pack it names (into a temporary --out)", async () => {
    const folder = join(dir, "monker");
    mkdirSync(folder, { recursive: true });
    // UTG folds or raises 60% of the pot; the other classes are absent (weight 0).
    writeFileSync(join(folder, "0.rng"), "AA\n0\nKK\n0.25\n72o\n1\n");
    writeFileSync(join(folder, "40060.rng"), "AA\n1\nKK\n0.75\n72o\n0\n");
    const imports = examples.filter((e) => named(e) === "import monker");
    expect(imports.length).toBeGreaterThan(0);
    for (const [i, e] of imports.entries()) {
      const out = join(dir, `packs-${i}`);
      const argv = e.full.map((w) => (w === "<folder>" ? folder : w));
      const at = argv.indexOf("--out");
      if (at >= 0) argv[at + 1] = out;
      else argv.push("--out", out);
      const r = await cli(argv);
      expect(r.code, `${argv.join(" ")}: ${r.err}`).toBe(0);
      const game = argv[argv.indexOf("--game") + 1];
      const stack = argv[argv.indexOf("--stack") + 1];
      expect(r.out).toMatch(new RegExp(`Imported \\d+ nodes for ${game} at ${stack}bb`));
    }
  });
  // `pnpm ranges worker` runs until a signal; workers.test.ts runs solve workers.
});

/** A connected SDK client; with `headers`, sent on every request. */
async function connect(url: string, headers?: Record<string, string>): Promise<Client> {
  const client = new Client({ name: "readme", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), headers ? { requestInit: { headers } } : {}),
  );
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** `--tool-arg` values as the Inspector sends them: a number where the tool's input schema takes one. */
function typed(tool: Tool, args: Record<string, string>): Record<string, unknown> {
  const props = (tool.inputSchema.properties ?? {}) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(args).map(([name, value]) => {
      const takesNumber = /"type":"(number|integer)"/.test(JSON.stringify(props[name] ?? {}));
      return [name, takesNumber && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value];
    }),
  );
}

describe("apps/mcp/README.md's client examples", () => {
  it("the TypeScript SDK snippet: with and without the key, get_node answers the node", async () => {
    const ex = sdkCallOf(MCP_README);
    expect(ex.tool).toBe("get_node");
    for (const headers of [undefined, { Authorization: `Bearer ${key}` }]) {
      const client = await connect(here(ex.url), headers);
      const { tools } = await client.listTools();
      expect(tools.map((x) => x.name)).toContain(ex.tool);
      const node = await call(client, ex.tool, ex.args);
      expect(node.isError, JSON.stringify(node.structuredContent)).not.toBe(true);
      expect(node.structuredContent).toMatchObject({ actions: expect.any(Array) });
      await client.close();
    }
  });

  it("the client entry: its URL and headers reach the keyed tools", async () => {
    const entry = clientEntryOf(MCP_README);
    const headers = Object.fromEntries(Object.entries(entry.headers).map(([k, v]) => [k, here(v)]));
    const client = await connect(here(entry.url), headers);
    const mine = await call(client, "list_my_requests", {});
    expect(mine.isError, JSON.stringify(mine.structuredContent)).not.toBe(true);
    await client.close();
  });

  const inspector = inspectorOf(MCP_README);
  // "Use `http://localhost:3001/mcp` for the standalone server": each call runs there too.
  const standalone = /Use `(http:\/\/localhost:\d+\/mcp)` for the standalone server/.exec(
    readme(MCP_README),
  )?.[1];
  it.each(inspector.map((c) => [`${c.method} ${c.tool ?? ""} ${JSON.stringify(c.args)}`, c] as const))(
    "the Inspector CLI call %s, mounted and standalone",
    async (_, c) => {
      expect(standalone).toBeDefined();
      const alone = await startMcpServer({ port: 0, host: "127.0.0.1", store: t.store, access: t.access });
      const urls = [here(c.url), alone.url.replace(/\/mcp$/, "") + new URL(standalone!).pathname];
      const headers = Object.fromEntries(Object.entries(c.headers).map(([k, v]) => [k, here(v)]));
      try {
        for (const url of urls) {
          const client = await connect(url, headers);
          const { tools } = await client.listTools();
          if (c.method === "tools/list") {
            expect(tools.length).toBeGreaterThan(20);
          } else {
            expect(c.method).toBe("tools/call");
            const tool = tools.find((x) => x.name === c.tool)!;
            expect(tool, c.tool).toBeDefined();
            const r = await call(client, tool.name, typed(tool, c.args));
            expect(r.isError, `${url}: ${JSON.stringify(r.structuredContent)}`).not.toBe(true);
            expect(r.structuredContent).toMatchObject({ actions: expect.any(Array) });
          }
          await client.close();
        }
      } finally {
        await alone.close();
      }
    },
  );

  it("finds the Inspector calls, one of them keyed", () => {
    expect(inspector.length).toBeGreaterThanOrEqual(3);
    expect(inspector.some((c) => c.headers.Authorization)).toBe(true);
  });

  it("a keyed call without a key: 401 with the README's resource_metadata, whose document names the endpoint", async () => {
    const documented = /resource_metadata="([^"]+)"/.exec(readme(MCP_README))?.[1];
    expect(documented).toBeDefined();
    const res = await fetch(`${t.base}/api/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "get_node", arguments: { game: "nlmtt8", stack: 40, history: "UTG" } },
      }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain(`resource_metadata="${here(documented!)}"`);
    const meta = await getJson(here(documented!));
    expect(meta.status).toBe(200);
    expect(meta.body).toMatchObject({ resource: `${t.base}/api/mcp`, scopes_supported: ["mcp"] });
  });
});

describe("the READMEs' upload curl", () => {
  const uploads = READMES.flatMap(uploadsOf);
  const hands = readFileSync(new URL("packages/hand-analysis/test/fixtures/observed-6max-cash.txt", ROOT));

  it("finds it in README.md and apps/mcp/README.md", () => {
    expect(uploads.map((u) => u.file)).toEqual(expect.arrayContaining(["README.md", MCP_README]));
  });

  it.each(uploads.map((u) => [u.file, u] as const))(
    "%s: the file POSTed to the link is stored",
    async (_, u) => {
      const client = await connect(`${t.base}/api/mcp`, { Authorization: `Bearer ${key}` });
      const made = await call(client, "get_upload_link", { hero: "rivertilt" });
      await client.close();
      const url = (made.structuredContent as { link?: { url: string } }).link?.url;
      expect(url, JSON.stringify(made.structuredContent)).toMatch(/\/api\/v1\/uploads\//);
      const res = await fetch(url!, {
        method: "POST",
        headers: { "content-type": u.contentType },
        body: hands,
      });
      expect(res.status).toBe(201);
      const { upload } = HandUploadSchema.parse(await res.json());
      expect(upload.hands).toBeGreaterThan(0);
    },
  );
});

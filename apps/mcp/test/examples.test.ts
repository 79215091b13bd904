/**
 * Issue 28 item 2: every example in a tool description runs. An example is a JSON object of arguments written
 * in the description; each is called through the SDK client on the committed packs (data/packs) and must
 * answer without an error. get_tree_docs lists the raise-size codes enqueue_solve's changes take, and those
 * codes are accepted.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { AccessStore } from "@ranges/access";
import { SolutionPacks, SolveQueue } from "@ranges/queue";
import { RangeStore } from "@ranges/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningMcpServer, startMcpServer } from "../src/index.js";
import { TOOL_SPECS } from "../src/server.js";
import { call, connect, ok } from "./helpers.js";

const PACKS_DIR = fileURLToPath(new URL("../../../data/packs", import.meta.url));

/** Every JSON object written in `text` (balanced braces that parse), in order. */
export function jsonObjectsIn(text: string): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  for (let start = text.indexOf("{"); start !== -1; ) {
    let depth = 0;
    let end = -1;
    for (let i = start; i < text.length; i++) {
      if (text[i] === "{") depth++;
      else if (text[i] === "}" && --depth === 0) {
        end = i;
        break;
      }
    }
    if (end === -1) break;
    try {
      const value: unknown = JSON.parse(text.slice(start, end + 1));
      if (typeof value === "object" && value !== null && !Array.isArray(value)) {
        found.push(value as Record<string, unknown>);
        start = text.indexOf("{", end + 1);
        continue;
      }
    } catch {}
    start = text.indexOf("{", start + 1);
  }
  return found;
}

/** The examples of a tool: the JSON objects of its description whose keys are all its arguments. */
const examplesOf = (spec: (typeof TOOL_SPECS)[number]) =>
  jsonObjectsIn(spec.description).filter((o) => Object.keys(o).every((k) => k in spec.input));

let store: RangeStore;
let access: AccessStore;
let solutions: SolutionPacks;
let dir: string;
let running: RunningMcpServer;
let client: Client;

beforeAll(async () => {
  store = RangeStore.open({ packsDir: PACKS_DIR, refreshMs: 0 });
  access = await AccessStore.open(":memory:");
  const queue = await SolveQueue.open(access.database);
  dir = mkdtempSync(join(tmpdir(), "mcp-examples-"));
  solutions = new SolutionPacks(queue, dir);
  running = await startMcpServer({ port: 0, host: "127.0.0.1", store, access, solves: { queue, solutions } });
  client = await connect(running.url, (await access.createKey({ name: "examples" })).key);
});

afterAll(async () => {
  await client?.close();
  await running?.close();
  await solutions?.close();
  await access?.close();
  store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the examples in the tool descriptions", () => {
  it("are found wherever a description writes a JSON object", () => {
    for (const spec of TOOL_SPECS) {
      const objects = jsonObjectsIn(spec.description);
      // An object that is not a call of this tool is an example that cannot run.
      expect(objects.length, spec.name).toBe(examplesOf(spec).length);
      if (spec.description.includes('{"')) expect(objects.length, spec.name).toBeGreaterThan(0);
    }
    expect(TOOL_SPECS.flatMap(examplesOf).length).toBeGreaterThanOrEqual(4);
  });

  for (const spec of TOOL_SPECS) {
    for (const example of examplesOf(spec)) {
      it(`${spec.name} ${JSON.stringify(example)}`, async () => {
        const result = await call(client, spec.name, example);
        expect(result.isError, JSON.stringify(result.structuredContent ?? result.content)).toBeFalsy();
        const content = result.structuredContent as { coverage?: { status: string } };
        expect(content.coverage?.status).not.toBe("unsupported");
      });
    }
  }
});

describe("get_tree_docs raise-size codes", () => {
  it("lists the library tree's codes at the stack, and enqueue_solve takes them", async () => {
    const docs = (await ok(client, "get_tree_docs", { game: "nlmtt8", stack: 15 })) as {
      raiseCodes: { grammar: string; tree: Record<string, number[]>; treeConfig: string };
    };
    expect(docs.raiseCodes.grammar).toMatch(/40000\+pct/);
    expect(docs.raiseCodes.treeConfig).toBe("data/trees/nlmtt8.json");
    // data/trees/nlmtt8.json, the 15bb profile: opens of 40029 (2x), SB opens of 40050.
    expect(docs.raiseCodes.tree).toMatchObject({ open: [40029], sbOpen: [40050], isoRaise: [40100] });
    const queued = await ok(client, "enqueue_solve", {
      game: "nlmtt8",
      stack: 15,
      // Three-handed, to stay within the standard plan.
      changes: {
        open: docs.raiseCodes.tree.open,
        sbOpen: docs.raiseCodes.tree.sbOpen,
        dealtIn: ["BTN", "SB", "BB"],
      },
    });
    expect((queued.solve as { status: string }).status).toBe("queued");
    const cash = (await ok(client, "get_tree_docs", { game: "nl/v2" })) as {
      raiseCodes: { tree: Record<string, number[]> };
    };
    expect(Object.keys(cash.raiseCodes.tree)).toContain("open");
    for (const codes of Object.values(cash.raiseCodes.tree)) {
      for (const code of codes)
        expect(code === 3 || code === 5 || code === 14 || code > 40000, `${code}`).toBe(true);
    }
  });
});

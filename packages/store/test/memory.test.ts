/**
 * Memory: loaded packs are compact (the data re-compressed in node blocks) and decoded exactly like
 * `decodePack`; one budget covers cached bodies and loaded packs at estimates of their real memory, and
 * evicts the least recently used; cold packs load in a helper process, off the event loop.
 */

import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { GAMES, HOLDEM_CLASS_COMBOS } from "@ranges/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compactPack } from "../src/compact.js";
import { decodePackMeta } from "../src/format.js";
import {
  decodePack,
  expandToClasses,
  type PackData,
  packClassToBucket,
  packPath,
  RangeStore,
  writePack,
} from "../src/index.js";
import { preparePackFile } from "../src/pack-worker.js";
import { nodeReach } from "../src/reach.js";
import { buildPack, tmpDir } from "./fixtures.js";

const PACKS_DIR = fileURLToPath(new URL("../../../data/packs", import.meta.url));
const committed = RangeStore.open({ packsDir: PACKS_DIR, refreshMs: 0 })
  .packStatus()
  .filter((p) => p.ok && p.stack !== null);

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
/** Heap plus ArrayBuffer memory of this thread after full collections. */
function used(): number {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}
const MiB = 2 ** 20;

/** Compares decoded vectors exactly (NaN equal to NaN); returns the first difference or null. */
function differs(a: ArrayLike<number> | null, b: ArrayLike<number> | null): string | null {
  if (a === null || b === null) return a === b ? null : "one side has no vector";
  if (a.length !== b.length) return `length ${a.length} vs ${b.length}`;
  for (let i = 0; i < a.length; i++) {
    if (!Object.is(a[i], b[i])) return `class ${i}: ${a[i]} vs ${b[i]}`;
  }
  return null;
}

/** Descriptors of this process open on blocks files in `dir` (Linux; empty elsewhere). */
function openBlockFiles(dir: string): string[] {
  if (!existsSync("/proc/self/fd")) return [];
  const out: string[] = [];
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.startsWith(dir) && /preflop-ranges-.*\.blocks/.test(target)) out.push(target);
    } catch {}
  }
  return out;
}

describe("compact packs", () => {
  it("decode every node of every committed pack exactly as decodePack, with the same reach", () => {
    expect(committed.length).toBeGreaterThan(0);
    const spillDir = tmpDir("store-spill-");
    const problems: string[] = [];
    committed.forEach((status, k) => {
      const full = decodePack(readFileSync(status.path));
      const map = packClassToBucket(full.header);
      // Every pack as the helper process prepares it (blocks in a deleted file); a few kept inflated too.
      const modes = k < 3 ? [true, false] : [true];
      for (const compress of modes) {
        const prepared = preparePackFile(status.path, {
          compress,
          spillDir,
          priors: { holdem169: HOLDEM_CLASS_COMBOS },
        });
        expect(prepared.storage.kind).toBe(compress ? "file" : "memory");
        const meta = prepared.index;
        // The compact index says what the full index says.
        const full0 = decodePackMeta(readFileSync(status.path));
        expect(meta.nodes.map((x) => [x.history, x.actor, x.depth, x.start])).toEqual(
          full0.nodes.map((x) => [x.history, x.actor, x.depth, x.actions[0]?.freqOffset ?? 0]),
        );
        const pack = compactPack({ game: status.game, stack: status.stack!, file: status.file }, prepared);
        expect(pack.checksum).toBe(status.checksum);
        const folds = full.nodes.flatMap((n) => n.actions.filter((a) => a.kind === "fold"));
        const zero = folds.every(
          (a) => a.evs === null || a.evs.every((x) => Number.isNaN(x) || Math.abs(x) < 5e-5),
        );
        expect(pack.baseline, status.file).toBe(full.header.evUnit !== null && zero ? "fold" : null);
        meta.nodes.forEach((node, i) => {
          const got = pack.decode(node);
          const want = full.nodes[i]!;
          got.actions.forEach((a, j) => {
            // A bucketed pack decodes per bucket; the loader serves classes (each its bucket's value).
            const w = want.actions[j]!;
            const wantFreqs = map ? expandToClasses(w.freqs, map) : w.freqs;
            const wantEvs = map && w.evs ? expandToClasses(w.evs, map) : w.evs;
            const d = differs(a.freqs, wantFreqs) ?? differs(a.evs, wantEvs);
            if (d !== null) problems.push(`${status.file} ${node.history} ${a.token}: ${d}`);
          });
          // The loader's reach of every node is exactly nodeReach on the decoded pack.
          const reach = pack.reach(node);
          if (!Object.is(reach, nodeReach(full, node.history))) {
            problems.push(
              `${status.file} ${node.history}: reach ${reach} vs ${nodeReach(full, node.history)}`,
            );
          }
        });
        // A bucketed PLO pack leaves its reaches to the store (pack.reach, checked above against nodeReach).
        if (!full.header.buckets) {
          expect(
            prepared.reach.every((r) => !Number.isNaN(r)),
            status.file,
          ).toBe(true);
        }
        pack.close();
      }
    });
    expect(problems.slice(0, 10)).toEqual([]);
    // The blocks files were deleted when opened, and closing the packs closed them.
    expect(readdirSync(spillDir)).toEqual([]);
    expect(openBlockFiles(spillDir)).toEqual([]);
    // 35 packs (107 MB): 133 to 158 s alone on the 2-core machine, 491 s beside two solves; not a speed test.
  }, 1_200_000);
});

describe("the memory budget", () => {
  let dir: string;
  const packs: PackData[] = [
    buildPack({ game: "nlmtt8", stack: 40, maxNodes: 120, seed: 1 }),
    buildPack({ game: "nlmtt8", stack: 20, maxNodes: 120, seed: 2 }),
    buildPack({ game: "nl/v2", stack: 100, maxNodes: 120, seed: 3 }),
    buildPack({ game: "nl/v2", stack: 50, maxNodes: 120, seed: 4 }),
  ];
  const stores: RangeStore[] = [];
  const open = (cacheBytes: number, worker = true) => {
    const s = RangeStore.open({ packsDir: dir, cacheBytes, refreshMs: 0, worker });
    stores.push(s);
    return s;
  };
  const rootOf = (p: PackData) =>
    ({ kind: "node", game: p.header.game, stack: p.header.stack, history: "UTG" }) as const;

  beforeAll(async () => {
    dir = tmpDir("store-memory-");
    for (const p of packs) await writePack(packPath(dir, p.header.game, p.header.stack), p);
  });
  afterAll(() => {
    for (const s of stores) s.close();
  });

  it("evicts the least recently used packs to fit, and reads an evicted pack again when asked", async () => {
    const big = open(1 << 30);
    for (const p of packs) await big.jsonAsync(rootOf(p));
    const all = big.cacheStats();
    expect(all.packs).toBe(4);
    const budget = Math.round(all.packBytes * 0.6);
    const store = open(budget);
    const bodies = new Map<number, string>();
    for (const [i, p] of packs.entries()) {
      bodies.set(i, (await store.jsonAsync(rootOf(p))).body);
      const s = store.cacheStats();
      expect(s.bytes + s.packBytes).toBeLessThanOrEqual(budget);
    }
    expect(store.cacheStats().packs).toBeLessThan(4);
    const loaded = () =>
      store
        .packStatus()
        .filter((p) => p.dataLoaded)
        .map((p) => p.file);
    expect(loaded()).toContain("nl-v2/50.pack"); // the most recent
    expect(loaded()).not.toContain("nlmtt8/40.pack"); // the least recent
    // Evicted packs serve again, with the same bodies.
    for (const [i, p] of packs.entries()) {
      const again = await store.jsonAsync({ ...rootOf(p), minFreq: 0.001 });
      expect(JSON.parse(again.body).game).toBe(p.header.game);
      expect(store.json(rootOf(p)).body).toBe(bodies.get(i));
    }
  });

  it("with a budget of 0 caches no bodies and keeps only the pack in use", () => {
    const store = open(0);
    for (const p of packs) store.json(rootOf(p));
    expect(store.cacheStats()).toMatchObject({ entries: 0, bytes: 0, packs: 1, budget: 0 });
    expect(
      store
        .packStatus()
        .filter((p) => p.dataLoaded)
        .map((p) => p.file),
    ).toEqual(["nl-v2/50.pack"]);
  });

  it("keeps the blocks of loaded packs in deleted files, closed when the packs leave memory", async () => {
    const spillDir = tmpDir("store-spill-");
    const store = RangeStore.open({ packsDir: dir, refreshMs: 0, spillDir });
    for (const p of packs) await store.jsonAsync(rootOf(p));
    expect(readdirSync(spillDir)).toEqual([]);
    if (existsSync("/proc/self/fd")) expect(openBlockFiles(spillDir)).toHaveLength(4);
    // The worker's own descriptors close when it stops: the blocks files must not be among them.
    store.close();
    await new Promise((r) => setTimeout(r, 200));
    expect(openBlockFiles(spillDir)).toEqual([]);
  });

  it("keeps serving from the blocks files after the helper process exits (it does not own them)", async () => {
    const store = open(1 << 30);
    for (const p of packs) await store.jsonAsync(rootOf(p));
    const loader = (
      store as unknown as { loader: { helper: import("node:child_process").ChildProcess | null } }
    ).loader;
    const helper = loader.helper;
    expect(helper).not.toBeNull();
    await new Promise((resolve) => {
      helper!.once("exit", resolve);
      helper!.kill();
    });
    for (const p of packs) {
      const body = JSON.parse((await store.jsonAsync({ ...rootOf(p), minFreq: 0.0123 })).body);
      expect(body.stack).toBe(p.header.stack);
    }
  });

  it("counts cached bodies at their real size", () => {
    const store = open(1 << 30, false);
    for (const p of packs) store.json(rootOf(p)); // packs in memory first
    const before = used();
    const statsBefore = store.cacheStats();
    for (const p of packs) {
      for (const node of p.nodes) {
        for (const minFreq of [0.001, 0.002, 0.003]) {
          const query = {
            kind: "node",
            game: p.header.game,
            stack: p.header.stack,
            history: node.history,
            minFreq,
          } as const;
          // Twice: a body is kept from its query's second miss on.
          store.json(query);
          store.json(query);
        }
      }
    }
    const measured = used() - before;
    const estimated = store.cacheStats().bytes - statsBefore.bytes;
    expect(store.cacheStats().entries - statsBefore.entries).toBeGreaterThan(1000);
    expect(measured / estimated).toBeGreaterThan(0.75);
    expect(measured / estimated).toBeLessThan(1.25);
  });

  it("counts loaded packs at no less than their real size", async () => {
    // Prepared on this thread, so that its buffers count here.
    const store = RangeStore.open({ packsDir: PACKS_DIR, cacheBytes: 1 << 30, refreshMs: 0, worker: false });
    stores.push(store);
    const before = used();
    for (const status of committed.slice(0, 8)) {
      const history = GAMES[status.game].seats[0]!;
      await store.jsonAsync({ kind: "node", game: status.game, stack: status.stack!, history });
    }
    const measured = used() - before;
    const { packBytes, bytes } = store.cacheStats();
    expect(measured).toBeLessThanOrEqual((packBytes + bytes) * 1.1);
    expect(measured).toBeGreaterThan(packBytes * 0.5);
  });
});

describe("every committed pack under a small budget", () => {
  it("keeps memory near the budget: packs leave memory instead of piling up", () => {
    const budget = 16 * MiB;
    const store = RangeStore.open({ packsDir: PACKS_DIR, cacheBytes: budget, refreshMs: 0, worker: false });
    const largest = Math.max(...committed.map((p) => readFileSync(p.path).length));
    const before = used();
    // Largest packs first, so the one kept beyond the budget at the end is a small one.
    const order = [...committed].sort((a, b) => readFileSync(b.path).length - readFileSync(a.path).length);
    for (const status of order) {
      for (const minFreq of [0, 0.01, 0.02]) {
        const history = GAMES[status.game].seats[0]!;
        store.json({ kind: "node", game: status.game, stack: status.stack!, history, minFreq });
      }
    }
    const grown = used() - before;
    store.close();
    // Decoded packs kept forever took about 10 times the files (over 400 MiB for the committed packs).
    expect(grown).toBeLessThan(budget + 4 * largest + 16 * MiB);
    expect(store.cacheStats().bytes + store.cacheStats().packBytes).toBeLessThan(budget + 4 * largest);
  });
});

describe("cold loads", () => {
  it("keep the event loop turning: the largest committed pack is read in the helper process", async () => {
    const store = RangeStore.open({ packsDir: PACKS_DIR, refreshMs: 0 });
    const largest = [...committed].sort(
      (a, b) => readFileSync(b.path).length - readFileSync(a.path).length,
    )[0]!;
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const started = performance.now();
    const result = await store.jsonAsync({
      kind: "node",
      game: largest.game,
      stack: largest.stack!,
      history: "UTG",
    });
    const ms = performance.now() - started;
    clearInterval(timer);
    store.close();
    expect(JSON.parse(result.body).stack).toBe(largest.stack);
    // A load on the event loop lets no timer run until it ends; here the timer runs throughout.
    expect(ticks).toBeGreaterThanOrEqual(Math.min(10, Math.floor(ms / 20)));
    expect(ticks).toBeGreaterThan(2);
  });
});

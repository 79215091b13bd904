/**
 * Postflop packs: the representative flops, the file format (round trip, checksums, lazy board reads) on real
 * small solves, the resumable batch, and the jobs read from the committed nl/v2 100bb preflop pack.
 */

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { RangeStore } from "@ranges/store";
import { afterAll, describe, expect, it } from "vitest";
import {
  boardTexture,
  canonicalBoard,
  canonicalFlops,
  handCategoryOf,
  lookupBoard,
  lookupPath,
  nlv2PackJobs,
  type PackJob,
  PostflopPackFile,
  PostflopPacks,
  packFile,
  parseBoard,
  representativeFlops,
  runPackJob,
} from "../src/index.js";

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "postflop-packs-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("flops", () => {
  it("has 1,755 suit-isomorphism classes over the 22,100 flops", () => {
    const flops = canonicalFlops();
    expect(flops).toHaveLength(1755);
    expect(flops.reduce((s, f) => s + f.count, 0)).toBe(22100);
    expect(canonicalBoard(parseBoard("2c2d2h")!)).toBe("2s2h2d");
    expect(canonicalBoard(parseBoard("Qd Jc 2c")!)).toBe("QsJh2h");
    expect(canonicalBoard(parseBoard("2hJhQs")!)).toBe("QsJh2h");
  });

  it("classifies textures", () => {
    expect(boardTexture(parseBoard("QsJh2h")!)).toEqual({
      pairedness: "unpaired",
      suitTexture: "two-tone",
      connectivity: "semi-connected",
      highCardClass: "broadway",
    });
    expect(boardTexture(parseBoard("Ah2d3c")!).connectivity).toBe("connected");
    expect(boardTexture(parseBoard("Kh7d2c")!).connectivity).toBe("disconnected");
    expect(boardTexture(parseBoard("7h7d7c")!).pairedness).toBe("trips");
    expect(boardTexture(parseBoard("9s8s2s")!).suitTexture).toBe("monotone");
  });

  it("picks at least 25 representative flops covering every stratum, weights summing to 1", () => {
    const picks = representativeFlops(30);
    expect(picks).toHaveLength(30);
    expect(new Set(picks.map((p) => p.board)).size).toBe(30);
    expect(picks.reduce((s, p) => s + p.weight, 0)).toBeCloseTo(1, 12);
    expect(picks.reduce((s, p) => s + p.classes, 0)).toBe(1755);
    expect(new Set(picks.map((p) => p.stratum))).toEqual(
      new Set([
        "unpaired rainbow",
        "unpaired two-tone",
        "monotone",
        "paired rainbow",
        "paired two-tone",
        "trips",
      ]),
    );
    for (const p of picks) expect(canonicalBoard(parseBoard(p.board)!)).toBe(p.board);
    expect(representativeFlops(30)).toEqual(picks);
  });
});

describe("hand categories", () => {
  const cat = (hole: string, board: string) =>
    handCategoryOf(parseBoard(`${hole}2c`)!.slice(0, 2) as [number, number], parseBoard(board)!);
  it("names made hands, draws and blockers", () => {
    expect(cat("AhKh", "QhJh2c").made).toBe("ace high");
    expect(cat("AhKh", "QhJh2c").draws).toEqual(
      expect.arrayContaining(["nut flush draw", "gutshot", "two overcards"]),
    );
    expect(cat("QdTc", "QhJh2c").made).toBe("top pair");
    expect(cat("KdKc", "QhJh2c").made).toBe("overpair");
    expect(cat("2d2s", "QhJh2c").made).toBe("set");
    expect(cat("9d8c", "Th7h2c").draws).toContain("open-ended straight draw");
    expect(cat("9d8c", "QhJhTc").made).toBe("straight");
    expect(cat("Ah9c", "Qh7h2c").blockers[0]).toMatch(/ace of hearts/);
  });
});

/** A narrow river spot that solves in well under a second. */
function riverJob(id: string, boards: string[]): PackJob {
  return {
    id,
    basePack: id,
    tree: "75",
    line: {
      kind: "test",
      description: "test river spot",
      game: "nl/v2",
      stack: 100,
      oop: "BB",
      ip: "BTN",
      oopSpot: "test",
      ipSpot: "test",
    },
    pot: 10,
    stack: 40,
    rake: { percent: 5, capBb: 0.6 },
    ranges: { oop: "KK,QQ,JJ,AQs,T9s", ip: "AA,KQs,QJs,87s,65s" },
    boards,
  };
}

describe("pack file and batch", () => {
  it("writes every board as it finishes, reads lazily, and resumes by skipping solved boards", async () => {
    const dir = tempDir();
    const job = riverJob("test-river", ["Qs Jh 2h 7c 3d", "Ks9d5c4h2s"]);
    const lines: string[] = [];
    const first = await runPackJob(job, dir, {
      threads: 1,
      maxIterations: 200,
      targetPct: 0.3,
      log: (l) => lines.push(l),
    });
    expect(first.map((o) => o.status)).toEqual(["solved", "solved"]);
    for (const o of first) expect(o.provenance.exploitabilityPct).toBeLessThanOrEqual(0.3);
    const pack = PostflopPackFile.open(packFile(dir, "test-river"));
    expect(pack.header.street).toBe("river");
    expect(pack.header.boards.map((b) => b.board)).toEqual(["Ks9h5d4c2s", "QsJh7d3c2h"].sort());
    const data = pack.board(pack.header.boards[0]!.board);
    const nodes = pack.header.nodes;
    expect(nodes[0]!.path).toEqual([]);
    // Consistency: per node the actor's EV is its strategy-weighted action EVs; folding is worth 0.
    nodes.forEach((node, k) => {
      const q = node.player === "oop" ? 0 : 1;
      const d = data.nodes[k]!;
      for (let h = 0; h < data.hands[q]!.length; h++) {
        if (Number.isNaN(d.ev[q]![h]!)) continue;
        let sum = 0;
        node.actions.forEach((a, i) => {
          sum += d.strategy[i]![h]! * d.actionEv[i]![h]!;
          if (a.kind === "fold") expect(Math.abs(d.actionEv[i]![h]!)).toBeLessThan(1e-4);
        });
        expect(Math.abs(sum - d.ev[q]![h]!)).toBeLessThan(2e-3);
      }
    });
    // The root EVs of both ranges sum to the pot less rake (at most the cap).
    const e = pack.header.boards[0]!.rootEv;
    expect(e.oop + e.ip).toBeLessThanOrEqual(10 + 1e-6);
    expect(e.oop + e.ip).toBeGreaterThanOrEqual(10 - 0.6 - 1e-6);

    // Lookups: suit-isomorphic boards map onto the solved one; paths by label, kind or pot share.
    const iso = lookupBoard(pack, "Qd Jc 2c 7s 3h");
    expect(iso.kind).toBe("solved");
    const miss = lookupBoard(pack, "As Ad 7c 7h 3d");
    expect(miss.kind === "unsolved" && miss.nearest.length).toBe(2);
    const bet = nodes[0]!.actions.find((a) => a.kind === "bet")!;
    expect(lookupPath(pack, ["check"])).toEqual({ kind: "node", node: 1 });
    expect(lookupPath(pack, ["bet"])).toEqual(lookupPath(pack, [bet.label]));
    expect(lookupPath(pack, ["bet 75%"])).toEqual(lookupPath(pack, [bet.label]));
    expect(() => lookupPath(pack, ["raise"])).toThrow(/not an action at the root/);

    // Resume: the same inputs skip both boards and leave the file's boards as they were.
    const before = readFileSync(packFile(dir, "test-river"));
    const again = await runPackJob(job, dir, { threads: 1, maxIterations: 200, targetPct: 0.3 });
    expect(again.map((o) => o.status)).toEqual(["skipped", "skipped"]);
    expect(readFileSync(packFile(dir, "test-river")).equals(before)).toBe(true);
    // A new board is solved and added; other inputs (a tighter target) re-solve the pack afresh.
    const more = await runPackJob({ ...job, boards: [...job.boards, "8c7c6d5s2h"] }, dir, {
      threads: 1,
      maxIterations: 200,
      targetPct: 0.3,
    });
    expect(more.map((o) => o.status)).toEqual(["skipped", "skipped", "solved"]);
    expect(PostflopPackFile.open(packFile(dir, "test-river")).header.boards).toHaveLength(3);
  });

  it("detects corruption: the header checksum at open, a board block on first read", async () => {
    const dir = tempDir();
    await runPackJob(riverJob("test-corrupt", ["Qs Jh 2h 7c 3d"]), dir, { threads: 1, maxIterations: 50 });
    const path = packFile(dir, "test-corrupt");
    const bytes = readFileSync(path);
    const headerFlip = Buffer.from(bytes);
    headerFlip[70] = headerFlip[70]! ^ 1;
    writeFileSync(path, headerFlip);
    expect(() => PostflopPackFile.open(path)).toThrow(/checksum/);
    const dataFlip = Buffer.from(bytes);
    dataFlip[dataFlip.length - 5] = dataFlip[dataFlip.length - 5]! ^ 1;
    writeFileSync(path, dataFlip);
    const pack = PostflopPackFile.open(path);
    expect(() => pack.board(pack.header.boards[0]!.board)).toThrow(/block checksum/);
    writeFileSync(path, bytes.subarray(0, bytes.length - 1));
    expect(() => PostflopPackFile.open(path)).toThrow(/truncated/);
    // The directory store lists the bad pack as unavailable and keeps the rest.
    writeFileSync(join(dir, "notes.txt"), "not a pack");
    const packs = PostflopPacks.open({ dir });
    expect(packs.list().map((p) => [p.id, p.pack === null])).toEqual([["test-corrupt", true]]);
    expect(() => packs.get("test-corrupt")).toThrow(/cannot be read/);
    expect(() => packs.get("nope")).toThrow(/No postflop pack/);
    expect(PostflopPacks.open({ dir: join(dir, "missing") }).list()).toEqual([]);
  });
});

describe("the repository's packs", () => {
  const packsDir = resolve(import.meta.dirname, "../../../data/packs");

  it("takes ranges, pot, stack and rake from the nl/v2 100bb preflop pack", () => {
    const store = RangeStore.open({ packsDir });
    try {
      const jobs = nlv2PackJobs(store);
      expect(jobs.map((j) => j.id)).toEqual([
        "srp-btn-bb-100bb",
        "srp-btn-bb-100bb-flop33",
        "3bp-bb-btn-100bb",
        "3bp-bb-btn-100bb-flop33",
      ]);
      const srp = jobs[0]!;
      expect(srp.boards).toHaveLength(30);
      expect(srp.rake).toEqual({ percent: 5, capBb: 0.6 });
      expect(srp.pot).toBeCloseTo(2 * (100 - srp.stack) + 0.5, 6);
      expect(srp.ranges.ip.length).toBeGreaterThan(50);
      expect(jobs[2]!.pot).toBeGreaterThan(srp.pot);
      expect(jobs[1]!.ranges).toEqual(srp.ranges);
    } finally {
      store.close();
    }
  });

  it("runs the batch on tiny settings (one river board, a few iterations) from those ranges", async () => {
    const store = RangeStore.open({ packsDir });
    let job: PackJob;
    try {
      job = nlv2PackJobs(store, ["Qs Jh 2h 7c 3d"])[0]!;
    } finally {
      store.close();
    }
    const dir = tempDir();
    const out = await runPackJob(job, dir, { threads: 1, maxIterations: 4, checkEvery: 2 });
    expect(out).toHaveLength(1);
    expect(out[0]!.provenance.iterations).toBeLessThanOrEqual(4);
    const pack = PostflopPackFile.open(packFile(dir, job.id));
    expect(pack.header.line.description).toMatch(/BTN opens to .*bb, SB folds, BB calls/);
    expect(pack.header.ranges).toEqual(job.ranges);
    expect(pack.board("QsJh7d3c2h").hands[1]!.length).toBeGreaterThan(100);
  });
});

import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { GameId } from "@ranges/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  decodePack,
  encodePack,
  FREQ_MAX_ERROR,
  PACK_MAGIC,
  PackFormatError,
  packChecksum,
  packPath,
  RAKE_NOT_RECORDED,
  readPackFile,
  writePack,
} from "../src/index.js";
import type { PackAction, PackConfig, PackData, PackNode } from "../src/pack-types.js";
import { buildPack, classCountOf, tmpDir, withHeaderJson, withoutRake } from "./fixtures.js";

const HISTORIES: Record<string, string[]> = {
  "nl/v2": ["UTG", "UTG_Fold_HJ", "UTG_60%_HJ", "UTG_Fold_HJ_Fold_CO", "UTG_60%_HJ_80%_CO"],
  nl: ["UTG", "UTG_Fold_HJ", "UTG_Fold_HJ_Fold_CO"],
  nlmtt8: ["UTG", "UTG_Fold_UTG1", "UTG_Open_UTG1", "UTG_Open_UTG1_3B_LJ"],
};
const TOKENS: Record<string, string[]> = {
  "nl/v2": ["Fold", "Call", "AI", "60%", "100%", "33.5%"],
  nl: ["Fold", "Call", "AI", "50%"],
  nlmtt8: ["Fold", "Call", "AI", "Open", "3B", "Limp"],
};

/** Random packs: valid histories and tokens, random Float32 frequencies and EVs (some NaN). */
const packArb = fc.constantFrom<GameId>("nl/v2", "nl", "nlmtt8").chain((game) => {
  const n = classCountOf(game);
  const hasEvs = game !== "nl";
  const f32 = fc.float({ min: 0, max: 1, noNaN: true });
  const ev = fc.oneof(fc.float({ min: -1000, max: 1000, noNaN: true }), fc.constant(Number.NaN));
  const action = (token: string) =>
    fc
      .record({
        code: fc.nat({ max: 50000 }),
        freqs: fc.array(f32, { minLength: n, maxLength: n }),
        evs: fc.array(ev, { minLength: n, maxLength: n }),
        sizeBb: fc.option(fc.double({ min: 0, max: 300, noNaN: true }), { nil: null }),
        reason: fc.option(fc.string(), { nil: undefined }),
      })
      .map((r): PackAction => {
        const base = {
          code: r.code,
          token,
          kind: token === "Fold" ? "fold" : token === "Call" || token === "Limp" ? "call" : "raise",
          sizeBb: r.sizeBb,
          sizePctPot: null,
          freqs: Float32Array.from(r.freqs),
          evs: hasEvs ? Float32Array.from(r.evs) : null,
        } as const;
        return r.reason === undefined ? base : { ...base, sizeReason: r.reason };
      });
  const node = (history: string) =>
    fc
      .subarray(TOKENS[game]!, { minLength: 1, maxLength: 3 })
      .chain((tokens) => fc.tuple(...tokens.map(action)))
      .map((actions): PackNode => {
        const parts = history.split("_");
        return { history, actor: parts.at(-1)!, depth: parts.length > 3 ? 3 : 2, actions };
      });
  return fc
    .subarray(HISTORIES[game]!, { minLength: 1 })
    .chain((histories) => fc.tuple(...histories.map(node)))
    .map((nodes): PackData => {
      const base = buildPack({ game, stack: 40, maxNodes: 1 });
      // Depth is not checked against the grammar by the writer; keep it in 1..4.
      return {
        header: { ...base.header, evUnit: hasEvs ? "sb" : null },
        nodes: nodes.map((n) => ({ ...n, depth: 1 })),
      };
    });
});

function expectClose(decoded: PackData, original: PackData): void {
  expect(decoded.header).toEqual(JSON.parse(JSON.stringify(original.header)));
  expect(decoded.nodes.length).toBe(original.nodes.length);
  decoded.nodes.forEach((node, i) => {
    const want = original.nodes[i]!;
    expect({ h: node.history, a: node.actor, d: node.depth }).toEqual({
      h: want.history,
      a: want.actor,
      d: want.depth,
    });
    node.actions.forEach((a, j) => {
      const w = want.actions[j]!;
      expect({ ...a, freqs: null, evs: null }).toEqual({ ...w, freqs: null, evs: null });
      for (let c = 0; c < a.freqs.length; c++) {
        expect(Math.abs(a.freqs[c]! - w.freqs[c]!)).toBeLessThanOrEqual(FREQ_MAX_ERROR + 1e-7);
      }
      if (w.evs === null) expect(a.evs).toBeNull();
      else expectEvsClose(a.evs!, w.evs);
    });
  });
}

/** Version 2 stores EVs in hundredths: equal within half a hundredth, and unscored (NaN) where written so. */
function expectEvsClose(read: ArrayLike<number>, written: ArrayLike<number>): void {
  expect(read.length).toBe(written.length);
  for (let c = 0; c < written.length; c++) {
    if (Number.isNaN(written[c]!)) expect(read[c]).toBeNaN();
    else
      expect(Math.abs(read[c]! - written[c]!)).toBeLessThanOrEqual(
        0.005 + 1e-4 * Math.abs(written[c]!) * 1e-3,
      );
  }
}

describe("encodePack / decodePack", () => {
  it("round-trips random packs within the quantization error, with deterministic bytes", () => {
    fc.assert(
      fc.property(packArb, (data) => {
        const bytes = encodePack(data);
        const decoded = decodePack(bytes);
        expectClose(decoded, data);
        // Same input, same bytes; and re-encoding the decoded pack is a fixed point.
        expect(encodePack(data).equals(bytes)).toBe(true);
        expect(encodePack(decoded).equals(bytes)).toBe(true);
      }),
      { numRuns: 25 },
    );
  });

  it("states an error bound below 1e-4", () => {
    expect(FREQ_MAX_ERROR).toBeLessThan(1e-4);
    const data = buildPack({ game: "nlmtt8", stack: 40, maxNodes: 20 });
    const decoded = decodePack(encodePack(data));
    let worst = 0;
    decoded.nodes.forEach((n, i) => {
      n.actions.forEach((a, j) => {
        a.freqs.forEach((f, c) => {
          worst = Math.max(worst, Math.abs(f - data.nodes[i]!.actions[j]!.freqs[c]!));
        });
      });
    });
    expect(worst).toBeLessThan(1e-4);
  });

  it("does not depend on the key order of the header", () => {
    const data = buildPack({ game: "nl/v2", stack: 100, maxNodes: 5 });
    const reversed = Object.fromEntries(
      Object.entries(data.header).reverse(),
    ) as unknown as PackData["header"];
    expect(encodePack({ ...data, header: reversed }).equals(encodePack(data))).toBe(true);
  });

  it("round-trips a PLO pack with 16,432 classes", () => {
    const data = buildPack({ game: "plo", stack: 100, maxNodes: 3 });
    const bytes = encodePack(data);
    expectClose(decodePack(bytes), data);
  });

  it("starts with the magic bytes and exposes the pack checksum", () => {
    const bytes = encodePack(buildPack({ game: "nl", stack: 100, maxNodes: 3 }));
    expect(bytes.subarray(0, 8).equals(PACK_MAGIC)).toBe(true);
    expect(bytes.readUInt32LE(8)).toBe(2);
    expect(packChecksum(bytes)).toMatch(/^[0-9a-f]{64}$/);
    expect(packChecksum(bytes)).toBe(bytes.subarray(64, 96).toString("hex"));
  });

  it("rejects a flipped byte in the header, the index and the data", () => {
    const bytes = encodePack(buildPack({ game: "nlmtt8", stack: 40, maxNodes: 4 }));
    const dataOffset = bytes.readUInt32LE(20);
    const headerLength = bytes.readUInt32LE(12);
    for (const [at, message] of [
      [100, /header\/index checksum/],
      [96 + headerLength + 5, /header\/index checksum/],
      [dataOffset + 7, /data checksum/],
      [40, /header\/index checksum/], // the stored data checksum is covered by the pack checksum
    ] as const) {
      const bad = Buffer.from(bytes);
      bad[at] = bad[at]! ^ 0x01;
      expect(() => decodePack(bad)).toThrow(message);
    }
  });

  it("rejects truncated, extended and foreign files", () => {
    const bytes = encodePack(buildPack({ game: "nl", stack: 100, maxNodes: 3 }));
    expect(() => decodePack(bytes.subarray(0, bytes.length - 1))).toThrow(/truncated/);
    expect(() => decodePack(bytes.subarray(0, 50))).toThrow(PackFormatError);
    expect(() => decodePack(Buffer.concat([bytes, Buffer.from([0])]))).toThrow(/truncated or extended/);
    expect(() =>
      decodePack(Buffer.from("not a pack at all, just some text that is long enough ".repeat(3))),
    ).toThrow(/magic/);
    const v3 = Buffer.from(bytes);
    v3.writeUInt32LE(3, 8);
    expect(() => decodePack(v3)).toThrow(/format version 3/);
  });

  it("refuses invalid pack data with a message naming the node", () => {
    const good = buildPack({ game: "nlmtt8", stack: 40, maxNodes: 3 });
    const node0 = good.nodes[0]!;
    const withAction = (patch: Partial<PackAction>): PackData => ({
      ...good,
      nodes: [{ ...node0, actions: [{ ...node0.actions[0]!, ...patch }, ...node0.actions.slice(1)] }],
    });
    expect(() => encodePack(withAction({ freqs: new Float32Array(10) }))).toThrow(/10 frequencies/);
    expect(() => encodePack(withAction({ freqs: new Float32Array(169).fill(1.5) }))).toThrow(/in \[0, 1\]/);
    expect(() => encodePack(withAction({ freqs: new Float32Array(169).fill(Number.NaN) }))).toThrow(
      /in \[0, 1\]/,
    );
    expect(() =>
      encodePack(withAction({ evs: new Float32Array(169).fill(Number.POSITIVE_INFINITY) })),
    ).toThrow(/EV Infinity/);
    expect(() => encodePack(withAction({ token: "Raise" }))).toThrow(/not an action token/);
    expect(() => encodePack(withAction({ token: "AI" }))).toThrow(/appears twice/);
    expect(() => encodePack({ ...good, nodes: [{ ...node0, history: "UTG_Fold_LJ" }] })).toThrow(
      /not a path/,
    );
    expect(() => encodePack({ ...good, nodes: [{ ...node0, history: "UTG_Open" }] })).toThrow(/must end in/);
    expect(() => encodePack({ ...good, nodes: [node0, node0] })).toThrow(/twice/);
    expect(() => encodePack({ ...good, nodes: [] })).toThrow(/at least one node/);
    expect(() => encodePack({ ...good, header: { ...good.header, classCount: 170 } })).toThrow(/classCount/);
    expect(() => encodePack({ ...good, header: { ...good.header, evUnit: null } })).toThrow(/evUnit is null/);
    expect(() =>
      encodePack({
        ...good,
        header: { ...good.header, provenance: { ...good.header.provenance, iterations: Number.NaN } },
      }),
    ).toThrow(/iterations is NaN/);
  });

  it("clamps float noise just outside [0, 1]", () => {
    const good = buildPack({ game: "nl", stack: 100, maxNodes: 1 });
    const node0 = good.nodes[0]!;
    const freqs = new Float32Array(169).fill(1.0000001);
    const data = {
      ...good,
      nodes: [{ ...node0, actions: [{ ...node0.actions[0]!, freqs }, ...node0.actions.slice(1)] }],
    };
    expect(decodePack(encodePack(data)).nodes[0]!.actions[0]!.freqs[0]).toBe(1);
  });
});

describe("config.rake", () => {
  const withRake = (rake: unknown, game: "nl/v2" | "nlmtt8" = "nl/v2"): PackData => {
    const base = buildPack({ game, stack: 100, maxNodes: 3 });
    return { ...base, header: { ...base.header, config: { ...base.header.config, rake } as PackConfig } };
  };
  const headerJson = (bytes: Buffer): Record<string, unknown> =>
    JSON.parse(bytes.subarray(96, 96 + bytes.readUInt32LE(12)).toString("utf8"));

  it("round-trips a rake and no rake (null), byte-identical on re-encoding", () => {
    for (const rake of [
      { percent: 5, capBb: 0.6, noFlopNoDrop: true },
      { percent: 0, capBb: 0, noFlopNoDrop: true },
      { percent: 99.5, capBb: 1000, noFlopNoDrop: true },
      null,
    ]) {
      const data = withRake(rake);
      const bytes = encodePack(data);
      expect((headerJson(bytes).config as { rake: unknown }).rake).toEqual(rake);
      const decoded = decodePack(bytes);
      expect(decoded.header.config.rake).toEqual(rake);
      // A recorded rake (even none) is a fact, not an unknown.
      expect(decoded.header.config.unverified).toEqual(data.header.config.unverified);
      expect(encodePack(decoded).equals(bytes)).toBe(true);
    }
  });

  it("reads a header written before the rake was recorded as null with an unverified entry", () => {
    const data = withRake({ percent: 5, capBb: 0.6, noFlopNoDrop: true }, "nlmtt8");
    const legacy = withHeaderJson(encodePack(data), withoutRake);
    expect("rake" in (headerJson(legacy).config as object)).toBe(false);
    const decoded = decodePack(legacy);
    expect(decoded.header.config.rake).toBeNull();
    expect(decoded.header.config.unverified).toEqual([...data.header.config.unverified, RAKE_NOT_RECORDED]);
    expect(RAKE_NOT_RECORDED).toEqual({
      field: "rake",
      reason: expect.stringMatching(/^Pack written before rake was recorded; .*unknown/),
    });
    expect(decoded.nodes.length).toBe(data.nodes.length);
    // Re-encoding states the unknown explicitly; reading that back changes nothing more.
    const again = encodePack(decoded);
    expect((headerJson(again).config as { rake: unknown }).rake).toBeNull();
    expect(decodePack(again).header).toEqual(decoded.header);
  });

  it("does not list the rake twice when an older header already says it is unknown", () => {
    const data = withRake(null);
    const listed = { field: "rake", reason: "unknown to the producer" };
    const legacy = withHeaderJson(encodePack(data), (h) => {
      const header = withoutRake(h);
      const config = header.config as { unverified: unknown[] };
      return { ...header, config: { ...config, unverified: [...config.unverified, listed] } };
    });
    const c = decodePack(legacy).header.config;
    expect(c.rake).toBeNull();
    expect(c.unverified.filter((u) => u.field === "rake")).toEqual([listed]);
  });

  it("a writer given no rake writes none, which reads as unknown", () => {
    const bytes = encodePack(withRake(undefined));
    expect("rake" in (headerJson(bytes).config as object)).toBe(false);
    const c = decodePack(bytes).header.config;
    expect(c.rake).toBeNull();
    expect(c.unverified.at(-1)).toEqual(RAKE_NOT_RECORDED);
  });

  it.each([
    [
      "a percent of 100",
      { percent: 100, capBb: 0.6, noFlopNoDrop: true },
      /percent must be a number in \[0, 100\)/,
    ],
    ["a negative percent", { percent: -1, capBb: 0.6, noFlopNoDrop: true }, /percent/],
    ["a percent as text", { percent: "5", capBb: 0.6, noFlopNoDrop: true }, /percent/],
    ["a NaN percent", { percent: Number.NaN, capBb: 0.6, noFlopNoDrop: true }, /percent/],
    ["a negative cap", { percent: 5, capBb: -0.1, noFlopNoDrop: true }, /capBb must be a number of bb >= 0/],
    ["no cap", { percent: 5, noFlopNoDrop: true }, /capBb/],
    ["no noFlopNoDrop", { percent: 5, capBb: 0.6 }, /noFlopNoDrop must be true/],
    ["noFlopNoDrop false", { percent: 5, capBb: 0.6, noFlopNoDrop: false }, /noFlopNoDrop must be true/],
    ["a string", "5% capped at 0.6bb", /rake must be null or an object/],
    ["an array", [5, 0.6], /rake must be null or an object/],
  ])("refuses %s, writing and reading", (_, rake, message) => {
    expect(() => encodePack(withRake(rake))).toThrow(message);
    // The same header from another writer: the reader refuses it too (a NaN reaches it as JSON null).
    const good = encodePack(withRake(null));
    const bad = withHeaderJson(good, (h) => ({ ...h, config: { ...(h.config as object), rake } }));
    expect(() => decodePack(bad)).toThrow(PackFormatError);
    expect(() => decodePack(bad)).toThrow(message);
  });
});

describe("pack files", () => {
  it("packPath places nl/v2 under nl-v2", () => {
    expect(packPath("/d", "nl/v2", 100)).toBe(join("/d", "nl-v2", "100.pack"));
    expect(packPath("/d", "nlmtt8", 40)).toBe(join("/d", "nlmtt8", "40.pack"));
  });

  it("writePack creates directories, writes atomically and readPackFile verifies", async () => {
    const dir = tmpDir();
    const data = buildPack({ game: "nl/v2", stack: 100, maxNodes: 6 });
    const path = packPath(join(dir, "deep", "packs"), "nl/v2", 100);
    await writePack(path, data);
    await writePack(path, data); // overwrite in place
    expect(readdirSync(join(dir, "deep", "packs", "nl-v2"))).toEqual(["100.pack"]);
    expect(readFileSync(path).equals(encodePack(data))).toBe(true);
    expectClose(await readPackFile(path), data);
  });

  it("writePack leaves nothing behind when the data is invalid", async () => {
    const dir = tmpDir();
    const path = packPath(dir, "nl", 100);
    await expect(
      writePack(path, { ...buildPack({ game: "nl", stack: 100, maxNodes: 1 }), nodes: [] }),
    ).rejects.toThrow(PackFormatError);
    expect(existsSync(path)).toBe(false);
  });

  it("readPackFile names the file when it is missing or corrupt", async () => {
    const dir = tmpDir();
    const path = join(dir, "40.pack");
    await expect(readPackFile(path)).rejects.toThrow(path);
    const bytes = encodePack(buildPack({ game: "nlmtt8", stack: 40, maxNodes: 2 }));
    bytes[bytes.length - 3] = bytes[bytes.length - 3]! ^ 0xff;
    writeFileSync(path, bytes);
    await expect(readPackFile(path)).rejects.toThrow(new RegExp(`${path}.*data checksum`));
  });
});

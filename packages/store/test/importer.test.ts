import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HOLDEM_CLASSES, ploClassIndex } from "@ranges/core";
import { ConfigSchema, NodeSchema, RangeSchema } from "@ranges/schema";
import { describe, expect, it } from "vitest";
import { importMonker, packPath, RangeStore, readPackFile, writePack } from "../src/index.js";
import { expectRangesErrorAsync, tmpDir } from "./fixtures.js";

const NOW = new Date("2025-03-01T12:00:00.000Z");
const AA = HOLDEM_CLASSES.indexOf("AA");
const AKS = HOLDEM_CLASSES.indexOf("AKs");
const T9O = HOLDEM_CLASSES.indexOf("T9o");

/** The body of an .rng file: hand line, then `frequency[;EV]` line, for each entry. */
const rng = (entries: Record<string, string>): string =>
  Object.entries(entries)
    .map(([hand, value]) => `${hand}\n${value}\n`)
    .join("");

function folder(files: Record<string, string>): string {
  const dir = tmpDir("monker-");
  for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, name), body);
  return dir;
}

/** A small nlmtt8 40bb tree: UTG folds, opens or shoves; UTG1 acts after the fold and after the open. */
const MTT_FILES: Record<string, string> = {
  "0.rng": rng({ AA: "0", AKs: "0.25", T9o: "1;0" }),
  "40034.rng": rng({ AA: "0.5;3.5", AhKh: "0.75;2.25", T9o: "0" }),
  "3.rng": rng({ AA: "0.5;4", T9o: "0" }),
  "0.0.rng": rng({ AA: "0;0", KK: "0.1;0" }),
  "0.40034.rng": rng({ AA: "1;3", KK: "0.9;2" }),
  "40034.0.rng": rng({ AA: "0;0" }),
  "40034.1.rng": rng({ AA: "0.2;1" }),
  "40034.40080.rng": rng({ AA: "0.8;5" }),
};

describe("importMonker", () => {
  it("builds the tree, tokens, sizes, frequencies and EVs", async () => {
    const dir = folder({ ...MTT_FILES, "notes.txt": "ignored" });
    const data = await importMonker(dir, { game: "nlmtt8", stack: 40, now: NOW });
    expect(data.nodes.map((n) => [n.history, n.depth, n.actions.map((a) => a.token)])).toEqual([
      ["UTG", 1, ["Fold", "Open", "AI"]],
      ["UTG_Fold_UTG1", 1, ["Fold", "Open"]],
      ["UTG_Open_UTG1", 2, ["Fold", "Call", "3B"]],
    ]);
    const [fold, open, ai] = data.nodes[0]!.actions;
    expect(open).toMatchObject({ code: 40034, kind: "raise", sizeBb: 2.19, sizePctPot: 34 });
    expect(ai).toMatchObject({ code: 3, kind: "allin", sizeBb: 40, sizePctPot: null });
    expect(open!.freqs[AKS]).toBe(0.75); // AhKh stands for AKs
    expect(open!.freqs[T9O]).toBe(0);
    expect(open!.freqs[HOLDEM_CLASSES.indexOf("22")]).toBe(0); // missing hands have frequency 0
    expect(open!.evs![AA]).toBe(3.5);
    expect(Number.isNaN(fold!.evs![AKS]!)).toBe(true); // a frequency without EV is unscored
    expect(Number.isNaN(open!.evs![HOLDEM_CLASSES.indexOf("22")]!)).toBe(true);
    expect(data.header).toMatchObject({ game: "nlmtt8", stack: 40, evUnit: "sb", classCount: 169 });
    expect(data.header.provenance).toMatchObject({ source: "import", createdAt: NOW.toISOString() });
    expect(data.header.config).toMatchObject({
      rake: null,
      importedAt: NOW.toISOString(),
      ante: 1,
      antePostedBy: "BB",
      stackIncludesAnte: true,
      stacks: Array(8).fill(40),
    });
    expect(data.nodes[2]!.actions[2]).toMatchObject({ token: "3B", sizePctPot: 80 });
  });

  it("writes a pack the store serves", async () => {
    const data = await importMonker(folder(MTT_FILES), { game: "nlmtt8", stack: 40, now: NOW });
    const packs = tmpDir();
    await writePack(packPath(packs, "nlmtt8", 40), data);
    expect((await readPackFile(packPath(packs, "nlmtt8", 40))).nodes.length).toBe(3);
    const store = RangeStore.open({ packsDir: packs });
    const n = NodeSchema.parse(store.node("nlmtt8", 40, "UTG"));
    expect(n.evBaseline).toBe("fold");
    expect(n.actions[1]!.weights).toEqual({ AA: 0.5, AKs: 0.75 });
    expect(n.actions[1]!.combos).toBe(0.5 * 6 + 0.75 * 4);
    const r = RangeSchema.parse(store.range("nlmtt8", 40, "UTG_Open_UTG1_3B", { hand: "AA" }));
    expect(r).toMatchObject({ freq: 0.8, ev: 5, sizePctPot: 80 });
    const c = ConfigSchema.parse(store.config("nlmtt8", 40));
    expect(c.importedAt).toBe(NOW.toISOString());
    expect(c.openSizes).toBeNull(); // the small tree has no SB first-in node
    expect(c.unverified.map((u) => u.field)).toContain("openSizes");
    // An export does not say which rake it was solved with: unknown, not "no rake".
    expect(c.rake).toBeNull();
    expect(c.unverified.find((u) => u.field === "rake")?.reason).toMatch(
      /do not record the rake.*not mean no rake/,
    );
  });

  it("uses size suffixes for several PLO raise sizes and maps four cards to a class", async () => {
    const dir = folder({
      "0.rng": rng({ AAKK: "0.5" }),
      "40050.rng": rng({ AsKsAhKh: "0.4;1.5", AAKK: "0.25;1" }),
      "40100.rng": rng({ "(AK)(AK)": "0.6;2" }),
    });
    const data = await importMonker(dir, { game: "plo", stack: 100, now: NOW });
    expect(data.nodes[0]!.actions.map((a) => a.token)).toEqual(["Fold", "Open-50", "Open-100"]);
    expect(data.nodes[0]!.actions[1]!.freqs[ploClassIndex("(AK)(AK)")!]).toBeCloseTo(0.4, 6);
    expect(data.nodes[0]!.actions[1]!.sizeBb).toBe(2.25);
  });

  it("uses percent tokens on cash hold'em and drops EVs for nl v1", async () => {
    const files = { "0.rng": rng({ AA: "0;0" }), "40060.rng": rng({ AA: "1;2" }) };
    const cash = await importMonker(folder({ "0.rng": files["0.rng"], "40060.rng": files["40060.rng"] }), {
      game: "nl",
      stack: 100,
      now: NOW,
    });
    expect(cash.nodes[0]!.actions.map((a) => a.token)).toEqual(["Fold", "60%"]);
    expect(cash.header.evUnit).toBeNull();
    expect(cash.nodes[0]!.actions.every((a) => a.evs === null)).toBe(true);
    expect(cash.header.provenance.notes.join(" ")).toMatch(/EVs .* dropped/);
    const scaled = await importMonker(folder({ "0.rng": files["0.rng"], "40060.rng": files["40060.rng"] }), {
      game: "nl/v2",
      stack: 100,
      now: NOW,
      evScale: 2,
    });
    expect(scaled.nodes[0]!.actions[1]!.evs![AA]).toBe(4);
  });
});

describe("importMonker rejections", () => {
  const reject = async (
    files: Record<string, string>,
    pattern: RegExp,
    game: "nlmtt8" | "plo6hu" = "nlmtt8",
  ) => {
    const dir = folder(files);
    const packs = tmpDir();
    const target = packPath(packs, game, 40);
    const e = await expectRangesErrorAsync(
      importMonker(dir, { game, stack: 40, now: NOW }).then((data) => writePack(target, data)),
      400,
      "invalid_parameter",
    );
    expect(e.message).toMatch(pattern);
    expect(existsSync(target)).toBe(false);
    return e;
  };

  it("unknown codes and file names", async () => {
    const e = await reject(
      { ...MTT_FILES, "0.7.rng": rng({ AA: "0" }) },
      /^0\.7\.rng: "7" is not a raise-size code/,
    );
    expect(e.hint).toMatchObject({ file: "0.7.rng" });
    await reject({ ...MTT_FILES, "open.rng": "" }, /^open\.rng: "open" is not a raise-size code/);
    await reject({ ...MTT_FILES, "0.01.rng": "" }, /^0\.01\.rng:/);
  });

  it("a hand that is not in the class set, with its line", async () => {
    const e = await reject(
      { ...MTT_FILES, "0.rng": "AA\n0.5\n\nAKx\n0.5\n" },
      /^0\.rng:4: "AKx" is not a hand class of nlmtt8/,
    );
    expect(e.hint).toMatchObject({ file: "0.rng", line: 4 });
    await reject({ ...MTT_FILES, "0.rng": rng({ AsKsQd: "0.5" }) }, /^0\.rng:1: /);
  });

  it("frequencies outside [0, 1] or not numbers, and bad EVs", async () => {
    await reject({ ...MTT_FILES, "0.rng": rng({ AA: "1.5" }) }, /^0\.rng:2: the frequency "1\.5" of AA/);
    await reject({ ...MTT_FILES, "0.rng": rng({ AA: "-0.1" }) }, /^0\.rng:2: /);
    await reject({ ...MTT_FILES, "0.rng": rng({ KK: "0", AA: "abc" }) }, /^0\.rng:4: the frequency "abc"/);
    await reject({ ...MTT_FILES, "0.rng": rng({ AA: "0.5;x" }) }, /^0\.rng:2: the EV "x" of AA/);
    await reject({ ...MTT_FILES, "0.rng": rng({ AA: "0.5;1;2" }) }, /^0\.rng:2: expected "frequency" or/);
    await reject(
      { ...MTT_FILES, "0.rng": "AA\n0.5\nKK\n" },
      /^0\.rng:3: the hand "KK" has no frequency line/,
    );
  });

  it("duplicate hands, also when given as cards", async () => {
    await reject(
      { ...MTT_FILES, "0.rng": rng({ AKs: "0.1", QQ: "0", AhKh: "0.1" }) },
      /^0\.rng:5: "AhKh" is the class AKs, already given at line 1/,
    );
  });

  it("files that do not form a tree", async () => {
    await reject(
      { ...MTT_FILES, "0.0.0.0.rng": rng({ AA: "1" }) },
      /^0\.0\.0\.0\.rng: the line before it has no file/,
    );
    const { "40034.1.rng": _call, "40034.40080.rng": _raise, ...lonely } = MTT_FILES;
    await reject(lonely, /^40034\.0\.rng: its node has no sibling files/);
    await reject({ "0.0.rng": "", "0.1.rng": "" }, /^0\.0\.rng: the line before it has no file/);
  });

  it("frequencies at a node summing above 1", async () => {
    const e = await reject(
      { ...MTT_FILES, "3.rng": rng({ AA: "0.6", T9o: "0" }) },
      /^40034\.rng:2: the frequencies of AA at this node sum to 1\.1, above 1 \(0\.rng:2, 3\.rng:2, 40034\.rng:2\)/,
    );
    expect(e.hint).toMatchObject({ file: "40034.rng", line: 2 });
  });

  it("lines the betting rules do not allow", async () => {
    // Heads-up: after the SB folds nobody acts.
    await reject(
      { "0.rng": "", "1.rng": "", "0.0.rng": "", "0.1.rng": "" },
      /^0\.0\.rng: the betting is already closed/,
      "plo6hu",
    );
    // A raise to 1.5bb after an open to 2.19bb is not a raise.
    await reject(
      { ...MTT_FILES, "40034.14.rng": "" },
      /^40034\.14\.rng: UTG1 cannot take this action: .*not above/,
    );
    // nlmtt8 holds one size per raise depth.
    await reject(
      { ...MTT_FILES, "40050.rng": "" },
      /^40050\.rng: it gives the same action token as 40034\.rng/,
    );
  });

  it("missing or empty folders", async () => {
    const empty = tmpDir("empty-");
    mkdirSync(join(empty, "sub"));
    await expect(importMonker(empty, { game: "nlmtt8", stack: 40 })).rejects.toThrow(/no \.rng files/);
    await expect(importMonker(join(empty, "nope"), { game: "nlmtt8", stack: 40 })).rejects.toThrow(
      /Cannot read/,
    );
    await expect(importMonker(empty, { game: "nlmtt8", stack: 40.5 })).rejects.toThrow(/whole big blinds/);
  });
});

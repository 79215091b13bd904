import { HOLDEM_CLASSES, ploClassIndex } from "@ranges/core";
import { RangeStore } from "@ranges/store";
import { afterAll, describe, expect, it } from "vitest";
import {
  EARLY_LINES,
  LineError,
  type LineSpec,
  lineClasses,
  planBatch,
  rangeText,
  readLine,
  STANDARD_LINES,
} from "../src/index.js";

const packsDir = new URL("../../../data/packs/", import.meta.url).pathname;
const store = RangeStore.open({ packsDir });
afterAll(() => store.close());
const spec = (id: string): LineSpec => [...STANDARD_LINES, ...EARLY_LINES].find((l) => l.id === id)!;
const at = (cls: string) => HOLDEM_CLASSES.indexOf(cls as (typeof HOLDEM_CLASSES)[number]);

describe("readLine", () => {
  it("reads a PLO pack's line over the 16,432 PLO classes: the BB calls the BTN's pot-sized open", () => {
    expect(lineClasses("plo")).toHaveLength(16_432);
    expect(lineClasses("nl/v2")).toBe(HOLDEM_CLASSES);
    expect(() => lineClasses("stud")).toThrow(LineError);
    const line = readLine(store, "plo", 100, spec("srp-btn-bb"));
    expect(line.history).toBe("UTG_Fold_HJ_Fold_CO_Fold_BTN_Open_SB_Fold_BB_Call");
    expect([line.oop, line.ip, line.pot, line.behind]).toEqual(["BB", "BTN", 7.5, 96.5]);
    expect(line.ranges.oop).toHaveLength(16_432);
    const open = store
      .node("plo", 100, "UTG_Fold_HJ_Fold_CO_Fold_BTN")
      .actions.find((a) => a.action === "Open")!;
    for (const cls of ["(AK)(AK)", "(98)(76)", "9642"])
      expect(line.ranges.ip[ploClassIndex(cls)!]).toBeCloseTo(open.weights[cls] ?? 0, 12);
  });

  it("reads the BTN-BB single-raised pot of nl/v2 100bb with the pack's own strategies", () => {
    const line = readLine(store, "nl/v2", 100, spec("srp-btn-bb"));
    expect(line.history).toBe("UTG_Fold_HJ_Fold_CO_Fold_BTN_60%_SB_Fold_BB_Call");
    expect([line.oop, line.ip, line.aggressor]).toEqual(["BB", "BTN", "ip"]);
    expect(line.pot).toBe(5.5);
    expect(line.behind).toBe(97.5);
    expect(line.rake).toEqual({ percent: 5, capBb: 0.6 });
    const open = store
      .node("nl/v2", 100, "UTG_Fold_HJ_Fold_CO_Fold_BTN")
      .actions.find((a) => a.action === "60%")!;
    const call = store
      .node("nl/v2", 100, "UTG_Fold_HJ_Fold_CO_Fold_BTN_60%_SB_Fold_BB")
      .actions.find((a) => a.kind === "call")!;
    for (const cls of ["AA", "K2o", "65s", "22"]) {
      expect(line.ranges.ip[at(cls)]).toBeCloseTo(open.weights[cls] ?? 0, 12);
      expect(line.ranges.oop[at(cls)]).toBeCloseTo(call.weights[cls] ?? 0, 12);
    }
  });

  it("multiplies a player's frequencies over its decisions (the BTN's open and its call of the 3-bet)", () => {
    const line = readLine(store, "nl/v2", 100, spec("3bp-bb-btn"));
    expect([line.oop, line.ip, line.aggressor]).toEqual(["BB", "BTN", "oop"]);
    expect(line.pot).toBe(19.8);
    const parts = line.history.split("_");
    const open = store
      .node("nl/v2", 100, "UTG_Fold_HJ_Fold_CO_Fold_BTN")
      .actions.find((a) => a.action === "60%")!;
    const btn2 = store.node("nl/v2", 100, `${parts.slice(0, 13).join("_")}`);
    expect(btn2.actor).toBe("BTN");
    const call = btn2.actions.find((a) => a.kind === "call")!;
    for (const cls of ["QQ", "AJs", "T9s"]) {
      expect(line.ranges.ip[at(cls)]).toBeCloseTo((open.weights[cls] ?? 0) * (call.weights[cls] ?? 0), 12);
    }
  });

  it("reads the first seat's opens called by the BB (UTG in position) and by the BTN (UTG out of position)", () => {
    const bb = readLine(store, "nlmtt8", 40, spec("srp-utg-bb"));
    expect([bb.oop, bb.ip, bb.aggressor, bb.pot, bb.behind]).toEqual(["BB", "UTG", "ip", 5.88, 36.81]);
    expect(bb.history.startsWith("UTG_")).toBe(true);
    expect(bb.history.endsWith("_BB_Call")).toBe(true);
    const btn = readLine(store, "nlmtt8", 40, spec("srp-utg-btn"));
    expect([btn.oop, btn.ip, btn.aggressor]).toEqual(["UTG", "BTN", "oop"]);
    const open = store.node("nlmtt8", 40, "UTG").actions.find((a) => a.kind === "raise")!;
    for (const cls of ["AA", "KQs", "75s", "22"])
      expect(bb.ranges.ip[at(cls)]).toBeCloseTo(open.weights[cls] ?? 0, 12);
  });

  it("counts nlmtt8's dead ante in the pot and takes it from the BB's stack", () => {
    const line = readLine(store, "nlmtt8", 40, spec("srp-btn-bb"));
    expect(line.pot).toBe(5.88);
    expect(line.behind).toBe(36.81);
    expect(line.rake).toBeNull();
  });

  it("puts the caller behind in position and the limper out of position", () => {
    const coBtn = readLine(store, "nl/v2", 100, spec("srp-co-btn"));
    expect([coBtn.oop, coBtn.ip, coBtn.aggressor]).toEqual(["CO", "BTN", "oop"]);
    expect(coBtn.history.endsWith("BTN_Call_SB_Fold_BB_Fold")).toBe(true);
    const limp = readLine(store, "nl/v2", 100, spec("limp-sb-bb"));
    expect([limp.oop, limp.ip, limp.aggressor, limp.pot]).toEqual(["SB", "BB", null, 2]);
  });

  it.each([
    ["nl/v2", 40, "4bp-btn-bb", /cannot raise/],
    ["nl/v2", 20, "3bp-bb-btn", /cannot raise/],
    ["nl9", 100, "limp-sb-bb", /cannot call/],
  ])("refuses %s %ibb %s (the pack has no such flop pot)", (game, stack, id, why) => {
    expect(() => readLine(store, game, stack, spec(id))).toThrow(why);
  });

  it.each([
    [{ id: "x", kind: "srp-ip", steps: ["BTN:raise", "SB:call", "BB:call"] }, /exactly two players/],
    [{ id: "x", kind: "srp-ip", steps: ["BTN:raise"] }, /exactly two players/],
    [
      { id: "x", kind: "srp-ip", steps: ["BB:call", "BTN:raise"] },
      /BTN acts at .* where the line names no step/,
    ],
  ] as [LineSpec, RegExp][])("refuses a malformed line %#", (bad, why) => {
    expect(() => readLine(store, "nl/v2", 100, bad)).toThrow(LineError);
    expect(() => readLine(store, "nl/v2", 100, bad)).toThrow(why);
  });

  it("refuses an unknown game", () => {
    expect(() => readLine(store, "nl7", 100, spec("srp-btn-bb"))).toThrow(/unknown game/);
  });
});

describe("rangeText", () => {
  it("writes weights to four decimals and leaves out what a seat plays under 0.5%", () => {
    const w = new Float64Array(169);
    w[at("AA")] = 1;
    w[at("AKs")] = 0.123456;
    w[at("72o")] = 0.004;
    expect(rangeText(w)).toBe("AA,AKs:0.1235");
  });
});

describe("planBatch", () => {
  it("gives each line its own flops with balanced-per-line, and every line the same with balanced", () => {
    const lines = [spec("srp-btn-bb"), spec("srp-co-bb")];
    const boardsOf = (plan: ReturnType<typeof planBatch>, id: string) =>
      plan.jobs.filter((j) => j.line.id === id).map((j) => j.board);
    const perLine = planBatch(
      store,
      [{ game: "nl/v2", stack: 100 }],
      lines,
      15,
      "/tmp/x",
      "balanced-per-line",
    );
    const shared = planBatch(store, [{ game: "nl/v2", stack: 100 }], lines, 15, "/tmp/x", "balanced");
    expect(boardsOf(perLine, "srp-btn-bb")).toHaveLength(15);
    expect(boardsOf(perLine, "srp-btn-bb")).not.toEqual(boardsOf(perLine, "srp-co-bb"));
    expect(boardsOf(shared, "srp-btn-bb")).toEqual(boardsOf(shared, "srp-co-bb"));
    expect(perLine.jobs.every((j) => Math.abs(j.weight - 1 / 15) < 1e-12)).toBe(true);
  });
});

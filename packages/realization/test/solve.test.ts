import { describe, expect, it } from "vitest";
import { parseTree, REALIZATION_TREE, TreeSpecError } from "../src/index.js";

describe("parseTree (the CLI's --tree)", () => {
  it.each([
    ["flop=75%", { ...REALIZATION_TREE, flopBet: "75%" }],
    ["flop=75%,cap=none", { ...REALIZATION_TREE, flopBet: "75%", raiseCap: null }],
    [
      "flop=33%, turn=66%,river=125%,raise=3x,cap=2",
      { flopBet: "33%", turnBet: "66%", riverBet: "125%", raise: "3x", raiseCap: 2 },
    ],
    ["cap=0", { ...REALIZATION_TREE, raiseCap: 0 }],
    ["raise=2.5x", REALIZATION_TREE],
  ])("reads %s", (text, tree) => {
    expect(parseTree(text)).toEqual(tree);
  });

  it.each([
    ["", /expected key=value/],
    ["flop", /expected key=value/],
    ["bet=75%", /unknown key "bet"/],
    ["flop=75%,flop=50%", /"flop" given twice/],
    ["flop=75", /flop is a bet in percent/],
    ["turn=0%", /turn is a bet in percent/],
    ["river=-5%", /river is a bet in percent/],
    ["raise=1x", /raise is a multiple above 1/],
    ["raise=250%", /raise is a multiple above 1/],
    ["cap=1.5", /cap is a whole number/],
    ["cap=-1", /cap is a whole number/],
    ["cap=all", /cap is a whole number/],
  ])("refuses %j", (text, message) => {
    expect(() => parseTree(text)).toThrow(TreeSpecError);
    expect(() => parseTree(text)).toThrow(message);
  });
});

import { describe, expect, it } from "vitest";
import { comboName, parseRange, RangeParseError, rangeSize } from "../src/range.js";

const named = (text: string) => {
  const w = parseRange(text);
  const out: string[] = [];
  for (let c = 0; c < w.length; c++) if (w[c]! > 0) out.push(comboName(c));
  return out.sort();
};

describe("parseRange", () => {
  const counts: [string, number, number?][] = [
    ["", 0],
    ["AA", 6],
    ["AKs", 4],
    ["AKo", 12],
    ["AK", 16],
    ["ka", 16],
    ["22+", 78],
    ["QQ+", 18],
    ["99-22", 48],
    ["22-99", 48],
    ["A2s+", 48],
    ["AJs-A2s", 40],
    ["A2s-AJs", 40],
    ["KQo-K8o", 60],
    ["T9s-T6s", 16],
    ["96s+", 12],
    ["K9+", 64],
    ["AsKs", 1],
    ["AKs:0.5", 4, 2],
    [" AA , KK:0.25 ", 12, 7.5],
    ["AK,AKo:0.5", 16, 10],
    ["AKo:0,AKs", 4, 4],
    [
      "99-22,AJs-A2s,AJo-A2o,KQs-K2s,KQo-K8o,QJs-Q4s,QJo-Q9o,JTs-J6s,JTo-J9o,T9s-T6s,T9o,96s+,86s+,75s+,64s+,53s+,43s",
      500,
    ],
    ["22+,A2s+,A8o+,A5o-A2o,K5s+,KTo+,Q8s+,QTo+,J8s+,JTo,T7s+,97s+,86s+,75s+,65s,54s", 422],
  ];
  it.each(counts)("%s has %i combos", (text, combos, weighted) => {
    const size = rangeSize(parseRange(text));
    expect(size.combos).toBe(combos);
    expect(size.weighted).toBeCloseTo(weighted ?? combos, 12);
  });

  it("names the right combos", () => {
    expect(named("AKs")).toEqual(["AcKc", "AdKd", "AhKh", "AsKs"]);
    expect(named("T9s-T8s")).toEqual(["Tc8c", "Tc9c", "Td8d", "Td9d", "Th8h", "Th9h", "Ts8s", "Ts9s"]);
    expect(named("KsAs,2c2d")).toEqual(["2d2c", "AsKs"]);
  });

  const failing: string[] = [
    ",",
    "AA,",
    "AA,,KK",
    "AAs",
    "AKx",
    "XK",
    "A",
    "AKQ",
    "AK:",
    "AK:1.5",
    "AK:-0.5",
    "AK:abc",
    "AA-KQs",
    "AKs-QJs",
    "AJs-A2o",
    "AsAs",
    "AsK",
    "AK+s",
    "22++",
    "+",
    "AK-",
  ];
  it.each(failing)("rejects %j", (text) => {
    expect(() => parseRange(text)).toThrow(RangeParseError);
  });
});

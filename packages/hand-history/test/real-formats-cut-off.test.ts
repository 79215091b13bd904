/**
 * iPoker sessions that end early (a client still writing the file, a copy interrupted): every complete
 * `<game>` is read, and the game the file ends inside is one refused hand that says so. The fixture,
 * test/fixtures/real-formats/ipoker-cut-off.xml, was written here with invented players and amounts.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Hand, parseHandHistories, writeHandHistory } from "../src/index.js";
import { expectChipsConserved, FIXTURES, nets, positions } from "./helpers.js";

const CUT = readFileSync(join(FIXTURES, "real-formats", "ipoker-cut-off.xml"), "utf8");
/** The same session with its third game left out and its `</session>` written: nothing cut off. */
const WHOLE = `${CUT.slice(0, CUT.indexOf(' <game gamecode="9100003">'))}</session>\n`;
const lineOf = (text: string, at: string, from = 0): number => {
  const index = text.split("\n").findIndex((l, i) => i >= from && l.includes(at));
  expect(index).toBeGreaterThanOrEqual(0);
  return index + 1;
};

describe("iPoker: a session whose file ends early", () => {
  it("reads every complete game and refuses the cut-off one, once", () => {
    const { hands, errors } = parseHandHistories(CUT);
    expect(hands.map((h) => h.id)).toEqual(["9100001", "9100002"]);
    for (const hand of hands) expectChipsConserved(hand);
    const [a, b] = hands;
    expect(a!.stakes).toEqual({ sb: 0.05, bb: 0.1, ante: 0, currency: "EUR" });
    expect(a!.date).toBe("2021-02-03T19:40:12");
    expect(positions(a!)).toEqual({ Hero: "BTN", anna_v: "SB", piotr_k: "BB" });
    // Hero's win of €1.02 holds the €0.40 nobody called: €0.62 of a €0.65 pot, €0.03 rake.
    expect(a!.uncalled).toEqual([{ player: "Hero", amount: 0.4 }]);
    expect([a!.totalPot, a!.rake]).toEqual([0.65, 0.03]);
    expect(nets(a!)).toEqual({ Hero: 0.32, anna_v: -0.05, piotr_k: -0.3 });
    expect(b!.boards).toEqual([["Ah", "5s", "2c", "Kd"]]);
    expect(nets(b!)).toEqual({ Hero: 0.37, anna_v: -0.3, piotr_k: -0.1 });
    // The third game: one refusal, with its number, its first line and the last line the file holds.
    expect(errors).toEqual([
      {
        handId: "9100003",
        site: "ipoker",
        line: lineOf(CUT, 'player="piotr_k" sum="€0.30" type="23"'),
        handLine: lineOf(CUT, '<game gamecode="9100003">'),
        message:
          "this hand is cut off: the file ends inside it (no </game>), so its play and its result are incomplete",
        text: '<action no="3" player="piotr_k" sum="€0.30" type="23" />',
      },
    ]);
  });

  it("reads the complete games the same with or without the cut-off one", () => {
    const whole = parseHandHistories(WHOLE);
    expect(whole.errors).toEqual([]);
    expect(whole.hands).toEqual(parseHandHistories(CUT).hands);
    for (const hand of whole.hands) {
      const back = parseHandHistories(writeHandHistory(hand));
      expect(back.errors).toEqual([]);
      expect(nets(back.hands[0]!)).toEqual(nets(hand));
    }
  });

  it("refuses a game cut off anywhere: mid-tag, right after its first line, on one line", () => {
    const end = CUT.indexOf('<cards type="Pocket" player="Hero">CQ CJ</cards>');
    const midTag = `${CUT.slice(0, end)}<cards type="Pock`;
    const bare = CUT.slice(0, CUT.indexOf("<general>", CUT.indexOf('<game gamecode="9100003">')));
    const oneLine = CUT.replace(/\n\s*/g, "");
    for (const text of [midTag, bare, oneLine]) {
      const { hands, errors } = parseHandHistories(text);
      expect(hands).toHaveLength(2);
      expect(errors.map((e) => [e.handId, e.message.slice(0, 52)])).toEqual([
        ["9100003", "this hand is cut off: the file ends inside it (no </"],
      ]);
    }
  });

  it("reads a game that stops right after a round, its </game> unwritten, and says so", () => {
    // The export writes a game whole, its results first: a file ending after a </round> lost only closing
    // tags. The hand reads as it would whole, with a note.
    const note = (what: string) =>
      `${what} after this hand's last round, before its </game>: the hand is read as written, and its chips add up`;
    const ends = WHOLE.slice(0, WHOLE.lastIndexOf("</round>") + "</round>".length);
    const inner = WHOLE.replace(" </game>\n", "");
    const whole = parseHandHistories(WHOLE).hands;
    for (const [text, cutIndex, what] of [
      [ends, 1, "the file ends"],
      [inner, 0, "the next <game> starts"],
    ] as const) {
      const { hands, errors } = parseHandHistories(text);
      expect(errors).toEqual([]);
      expect(hands).toHaveLength(2);
      expect(hands[cutIndex]!.notes).toEqual([note(what)]);
      // The same hands (the line of the second moves up when a line is taken out).
      const same = (h: Hand) => ({ ...h, notes: [], line: 0 });
      expect(same(hands[cutIndex]!)).toEqual(same(whole[cutIndex]!));
      expect(same(hands[1 - cutIndex]!)).toEqual(same(whole[1 - cutIndex]!));
    }
  });

  it("refuses a game that stops after a round when it cannot be read, saying it is cut off", () => {
    // The third game cut after its blinds: nobody has won yet.
    const text = CUT.slice(0, CUT.indexOf("</round>", CUT.indexOf('<game gamecode="9100003">')) + 8);
    const { hands, errors } = parseHandHistories(text);
    expect(hands).toHaveLength(2);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      handId: "9100003",
      handLine: lineOf(text, '<game gamecode="9100003">'),
    });
    expect(errors[0]!.message).toMatch(
      /^nobody collects the pot of 0\.1: .* \(this hand is cut off: the file ends inside it\)$/,
    );
  });

  it("refuses, each as one hand, games that hold only the seats and the blinds", () => {
    // A file saved without the hands' play: no date, no cards, no action after the blinds, no winner.
    const stub = (code: string) =>
      ` <game gamecode="${code}">\n  <general>\n   <players>\n` +
      '    <player seat="1" name="Hero" chips="€10" dealer="1" />\n' +
      '    <player seat="2" name="anna_v" chips="€8" dealer="0" />\n' +
      '    <player seat="4" name="piotr_k" chips="€12" dealer="0" />\n' +
      '   </players>\n  </general>\n  <round no="0">\n' +
      '   <action no="1" player="anna_v" sum="€0.05" type="1" />\n' +
      '   <action no="2" player="piotr_k" sum="€0.10" type="2" />\n  </round>\n </game>\n';
    const text = WHOLE.replace("</session>", `${stub("9100010")}${stub("9100011")}</session>`);
    const { hands, errors } = parseHandHistories(text);
    expect(hands).toHaveLength(2);
    expect(errors.map((e) => [e.handId, e.line, e.message])).toEqual(
      ["9100010", "9100011"].map((code) => [
        code,
        lineOf(text, `<game gamecode="${code}">`),
        "this hand holds only the seats and the blinds (no date, no cards, no play, no winner): the file left the rest of it out",
      ]),
    );
  });
});

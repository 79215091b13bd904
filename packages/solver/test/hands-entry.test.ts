import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// `@ranges/solver/hands` fills the evaluator's tables on its first evaluation; the main entry fills them when
// it loads. Run in a fresh process, so that nothing has filled them before the entry under test evaluates.
const solverDir = fileURLToPath(new URL("..", import.meta.url));
const run = (code: string): unknown =>
  JSON.parse(
    execFileSync(process.execPath, ["--input-type=module", "-e", code], { cwd: solverDir, encoding: "utf8" }),
  );

// Cards are rank * 4 + suit (rank 0 = deuce). As: 48, Ks: 44, Qs: 40, Js: 36, Ts: 32; 2c: 0, 2d: 1.
const EVALUATIONS = `[
  h.evaluate7(48, 44, 40, 36, 32, 0, 1),
  h.evaluate5(48, 49, 50, 0, 1),
  h.evaluateWith2(h.partialHand([48, 44, 40, 5, 9]), 36, 33),
  h.evaluateCards([0, 4, 8, 12, 17, 21]),
]`;

describe("@ranges/solver/hands", () => {
  it("evaluates right in a process that never imported the main entry, as the main entry does", () => {
    const { lazy, main } = run(`
      const h = await import("@ranges/solver/hands");
      const lazy = ${EVALUATIONS};
      const m = await import("@ranges/solver");
      const main = ${EVALUATIONS.replaceAll("h.", "m.")};
      console.log(JSON.stringify({ lazy, main }));
    `) as { lazy: number[]; main: number[] };
    expect(lazy).toEqual(main);
    // A royal flush, a full house, a straight, a straight (wheel to six): the categories, high bits.
    expect(lazy.map((v) => v >> 12)).toEqual([8, 6, 4, 4]);
  });
});

/**
 * Turn and river answers over real HTTP on the committed 3-bet pot pack (data/postflop): a path that goes on
 * with the turn card is answered from the turn solved on demand from the flop solve's ranges, labelled as such
 * with its exploitability; the river after it likewise. Checked against the flop's stored numbers (the turn's
 * ranges are the flop's reach after the closing action), across a suit-isomorphic request, and for the errors
 * a user makes writing such paths.
 */

import { fileURLToPath } from "node:url";
import { PostflopPacks } from "@ranges/postflop";
import { ErrorBodySchema, type ToolEnvelope, ToolEnvelopeSchema } from "@ranges/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, start, type TestServer } from "./helpers.js";

const DATA = fileURLToPath(new URL("../../../data", import.meta.url));
const PACK = "3bp-bb-btn-100bb";

let t: TestServer;
let key: string;

beforeAll(async () => {
  t = await start({ packsDir: `${DATA}/packs`, postflop: PostflopPacks.open({ dir: `${DATA}/postflop` }) });
  key = (await t.access.createKey({ name: "on-demand" })).key;
});

afterAll(async () => {
  await t?.close();
});

async function get(path: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${t.base}/api/v1/postflop/${PACK}/${path}`, bearer(key));
  return { status: res.status, body: await res.json() };
}

async function envelope(path: string): Promise<ToolEnvelope> {
  const { status, body } = await get(path);
  expect(status, JSON.stringify(body).slice(0, 300)).toBe(200);
  return ToolEnvelopeSchema.parse(body);
}

type Solve = {
  kind: string;
  street: string;
  board: string;
  potBb: number;
  exploitabilityPct: number;
  reachedTarget: boolean;
  iterations: number;
  algorithm: string;
};
type Action = { action: string; frequency: number; evBb: number | null };
type Combo = { combo: string; reach: number; strategy: Action[]; evBb: number | null };

describe("turn and river nodes, solved on demand", () => {
  it("answers the turn after the flop checks through, labelled with its solve and exploitability", async () => {
    const env = await envelope("node?board=KsJh5d&path=check,check,7c&combo=AhAd");
    expect(env.coverage.status).toBe("exact");
    expect(env.context.nodeStreet).toBe("turn");
    expect(env.context.path).toEqual(["check", "check", "7c"]);
    expect(env.context.dealt).toEqual(["7c"]);
    expect(env.context.actor).toBe("oop");
    const solve = env.context.solve as Solve;
    expect(solve).toMatchObject({ kind: "on_demand_subgame", street: "turn", board: "KsJh5d7c" });
    expect(solve.reachedTarget).toBe(true);
    expect(solve.exploitabilityPct).toBeLessThanOrEqual(0.5);
    // The subgame names its own schedule (the solver's default), not the pack's.
    expect(solve.algorithm).toMatch(
      /^DCFR \(alpha 1\.5, beta 0, gamma 3, positive regrets discounted 1 iteration late\)/,
    );
    // The flop pot of the 3-bet pot, checked through: the turn pot is the flop pot.
    const flop = await envelope("node?board=KsJh5d&path=");
    expect(solve.potBb).toBe(flop.context.potBb);
    const actions = env.result.actions as Action[];
    expect(actions.map((a) => a.action)).toEqual(["check", `bet ${(0.75 * solve.potBb).toFixed(2)}`]);
    expect(actions.reduce((s, a) => s + a.frequency, 0)).toBeCloseTo(1, 3);
    const aces = env.result.combo as Combo;
    expect(aces.combo).toBe("AhAd");
    expect(aces.strategy.reduce((s, a) => s + a.frequency, 0)).toBeCloseTo(1, 3);
  });

  it("starts the turn from the flop's reach after the closing action", async () => {
    // OOP checks the flop, IP checks behind: OOP's turn reach is its flop check frequency (its root reach is
    // its range weight); IP's is its reach at ["check"] times its check-behind frequency.
    const oopFlop = await envelope("range?board=KsJh5d&path=&action=check");
    const ipFlop = await envelope("range?board=KsJh5d&path=check&action=check");
    const turnOop = await envelope("range?board=KsJh5d&path=check,check,7c");
    const turnIp = await envelope("range?board=KsJh5d&path=check,check,7c,check");
    for (const [flop, turn] of [
      [oopFlop, turnOop],
      [ipFlop, turnIp],
    ] as const) {
      const after = new Map(
        (flop.result.combos as { combo: string; weightAfter: number }[]).map((c) => [c.combo, c.weightAfter]),
      );
      const combos = turn.result.combos as { combo: string; reach: number }[];
      expect(combos.length).toBeGreaterThan(50);
      const atRoot = turn.context.actor === "oop";
      let checked = 0;
      for (const c of combos) {
        if (c.combo.includes("7c")) throw new Error(`${c.combo} holds the dealt card`);
        if (!atRoot) continue;
        expect(c.reach, c.combo).toBeCloseTo(after.get(c.combo) ?? 0, 3);
        checked++;
      }
      if (atRoot) expect(checked).toBe(combos.length);
    }
  });

  it("answers a suit-isomorphic board and turn from the same solve, suits mapped back", async () => {
    // KdJc5h is KsJh5d with s<->d and h<->c: the 7s turn there is the 7c turn here.
    const a = (await envelope("node?board=KsJh5d&path=check,check,7c&combo=AsQs")).result.combo as Combo;
    const iso = await envelope("node?board=KdJc5h&path=check,check,7s&combo=AdQd");
    expect((iso.context.solve as Solve).board).toBe("KdJc5h7s");
    const b = iso.result.combo as Combo;
    expect(b.combo).toBe("AdQd");
    expect(b.strategy).toEqual(a.strategy);
    expect(b.evBb).toBe(a.evBb);
  });

  it("goes on to the river, solved from the turn's ranges, and explains a combo there", async () => {
    const env = await envelope("node?board=KsJh5d&path=check,check,7c,check,check,2d");
    expect(env.context.nodeStreet).toBe("river");
    expect(env.context.dealt).toEqual(["7c", "2d"]);
    const solve = env.context.solve as Solve;
    expect(solve).toMatchObject({ street: "river", board: "KsJh5d7c2d", reachedTarget: true });
    expect(solve.exploitabilityPct).toBeLessThanOrEqual(0.5);
    const explain = await envelope("explain?board=KsJh5d&path=check,check,7c,check,check,2d&combo=7h7d");
    expect(explain.coverage.status).toBe("exact");
    expect((explain.result.handCategory as { made: string }).made).toBe("set");
    expect(String(explain.result.explanation)).toMatch(/^7h7d \(set/);
  });

  const failing: [string, string, RegExp][] = [
    ["a path ending where the turn card goes", "node?board=KsJh5d&path=check,check", /add the turn card/],
    [
      "an action where the turn card goes",
      "node?board=KsJh5d&path=check,check,bet",
      /next step is the turn card/,
    ],
    ["a turn card already on the board", "node?board=KsJh5d&path=check,check,Ks", /already on the board/],
    [
      "a river card already dealt",
      "node?board=KsJh5d&path=check,check,7c,check,check,7c",
      /already on the board/,
    ],
    [
      "a card after the river",
      "node?board=KsJh5d&path=check,check,7c,check,check,2d,check,check,3c",
      /shown down/,
    ],
    ["a step after a fold", "node?board=KsJh5d&path=bet,fold,7c", /follows a fold/],
    [
      "an action after the river's end",
      "node?board=KsJh5d&path=check,check,7c,check,check,2d,check,check,bet",
      /shown down/,
    ],
    [
      // 7h2d is not in BB's 3-bet range: at a turn node the message says it may also have left on the flop.
      "a combo that does not reach the turn",
      "node?board=KsJh5d&path=check,check,7c&combo=7h2d",
      /does not reach the turn on this line/,
    ],
  ];
  it.each(failing)("answers 400 for %s, saying what to write", async (_, path, message) => {
    const { status, body } = await get(path);
    expect(status).toBe(400);
    const error = ErrorBodySchema.parse(body);
    expect(error.error.message).toMatch(message);
  });
});

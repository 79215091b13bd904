/**
 * Three-player oracle for the CFR engine: three-handed jam/fold games (test/three-handed-games.ts) whose
 * values, best responses and action EVs are recomputed here by brute force, without the engine: every deal
 * of classes is enumerated, the game is played out by its rules, and a seat's best response is the best of
 * its pure plans (one action at each of its decisions), found separately for each of its classes.
 */

import { describe, expect, it } from "vitest";
import { type CfrParams, CfrSolver, DCFR_PARAMS } from "../src/engine/cfr.js";
import {
  BLINDS,
  randomBucketed,
  randomShare,
  strengthShare,
  type ThreeHandedSpec,
  threeHandedJamFold,
} from "./three-handed-games.js";

/** Probability of each action (fold first) at a decision, for the acting seat holding `cls`. */
type Policy = (seat: number, history: string, cls: number) => readonly number[];
/** Seat i's share of a pot contested by `players` when the seats hold `deal`. */
type Split = (players: readonly number[], deal: readonly number[]) => number[];

/** Showdown by the cards: the strongest class takes the pot, ties split it. */
function strongestWins(strength: readonly number[]): Split {
  return (players, deal) => {
    const best = Math.max(...players.map((p) => strength[deal[p]!]!));
    const winners = players.filter((p) => strength[deal[p]!] === best);
    return [0, 1, 2].map((s) => (winners.includes(s) ? 1 / winners.length : 0));
  };
}

/**
 * Independent duels: every pair of the pot's players duels with its heads-up share; a player who wins every
 * duel takes the pot, and a cycle splits it equally.
 */
function independentDuels(share: ThreeHandedSpec["share"]): Split {
  return (players, deal) => {
    const k = players.length;
    const sweep = (i: number) =>
      players.reduce((x, j) => (j === i ? x : x * share(i, j, deal[i]!, deal[j]!)), 1);
    const cycle = 1 - players.reduce((x, m) => x + sweep(m), 0);
    return [0, 1, 2].map((s) => (players.includes(s) ? sweep(s) + cycle / k : 0));
  };
}

/**
 * Board-conditioned duels: seat i sweeps with chance sum_k pi(a_i, k) prod_j share_k(i, j); a sweeper takes the
 * pot and the rest is split equally. Heads-up, the plain share.
 */
function bucketedDuels(
  share: ThreeHandedSpec["share"],
  bucketed: NonNullable<ThreeHandedSpec["bucketed"]>,
): Split {
  return (players, deal) => {
    const k = players.length;
    if (k === 2) {
      const [i, j] = players as [number, number];
      const si = share(i, j, deal[i]!, deal[j]!);
      return [0, 1, 2].map((s) => (s === i ? si : s === j ? 1 - si : 0));
    }
    const sweep = (i: number) => {
      let p = 0;
      for (let b = 0; b < bucketed.buckets; b++)
        p += players.reduce(
          (x, j) => (j === i ? x : x * bucketed.share(i, j, deal[i]!, deal[j]!, b)),
          bucketed.pi(deal[i]!, b),
        );
      return p;
    };
    const rest = 1 - players.reduce((x, m) => x + sweep(m), 0);
    return [0, 1, 2].map((s) => (players.includes(s) ? sweep(s) + rest / k : 0));
  };
}

interface Visit {
  history: string;
  actor: number;
  committed: readonly number[];
  /** Chance of the line given the deal: every action's probability, the actor's included. */
  prob: number;
}

interface Played {
  net: number[];
  rake: number;
}

const SEAT_NAMES = ["BTN", "SB", "BB"];

/** Chips won (minus chips put in) by every seat at the end of a hand, and the chips raked. */
function settle(
  spec: ThreeHandedSpec,
  split: Split,
  committed: readonly number[],
  live: readonly number[],
  deal: readonly number[],
): Played {
  const net = committed.map((c) => -c);
  if (live.length === 1) {
    net[live[0]!]! += committed.reduce((x, y) => x + y, 0);
    return { net, rake: 0 };
  }
  // Layer by layer: the chips between two consecutive commitment levels go to the live seats that reached
  // the upper level (back to its owner when only one did).
  const levels = [...new Set(committed)].sort((x, y) => x - y);
  const layers: { amount: number; players: number[] }[] = [];
  let prev = 0;
  for (const level of levels) {
    const amount = committed.reduce((x, c) => x + Math.min(c, level) - Math.min(c, prev), 0);
    const players = live.filter((p) => committed[p]! >= level);
    if (players.length === 0) {
      layers[layers.length - 1]!.amount += amount;
    } else if (players.length === 1) {
      net[players[0]!]! += amount;
    } else {
      layers.push({ amount, players });
    }
    prev = level;
  }
  const pot = layers.reduce((x, l) => x + l.amount, 0);
  const rake = spec.rake?.(pot) ?? 0;
  for (const layer of layers) {
    const s = split(layer.players, deal);
    for (let i = 0; i < 3; i++) net[i]! += layer.amount * (1 - rake / pot) * s[i]!;
  }
  return { net, rake };
}

const NOTHING: Played = { net: [0, 0, 0], rake: 0 };

/**
 * Expected result of one deal when the seats play `policy`; `visit` sees every decision reached. With
 * `through`, only the hands that pass that decision count.
 */
function play(
  spec: ThreeHandedSpec,
  split: Split,
  deal: readonly number[],
  policy: Policy,
  visit?: (v: Visit) => void,
  through?: string,
): Played {
  const walk = (
    actor: number,
    committed: number[],
    live: number[],
    jammed: boolean,
    path: string,
    prob: number,
  ) => {
    if (live.length === 1 || actor === 3) {
      if (through !== undefined && !path.startsWith(`${through}_`)) return NOTHING;
      return settle(spec, split, committed, live, deal);
    }
    const history = `${path}${SEAT_NAMES[actor]}`;
    visit?.({ history, actor, committed, prob });
    const probs = policy(actor, history, deal[actor]!);
    const out: Played = { net: [0, 0, 0], rake: 0 };
    const add = (p: number, r: Played) => {
      if (p === 0) return;
      for (let i = 0; i < 3; i++) out.net[i]! += p * r.net[i]!;
      out.rake += p * r.rake;
    };
    // Fold.
    add(
      probs[0]!,
      walk(
        actor + 1,
        committed,
        live.filter((s) => s !== actor),
        jammed,
        `${history}_F_`,
        prob * probs[0]!,
      ),
    );
    // Jam, or call a jam (all in for less with a shorter stack).
    const stack = spec.stacks[actor]!;
    const put = jammed ? Math.min(stack, Math.max(...committed)) : stack;
    const after = committed.map((c, s) => (s === actor ? put : c));
    add(probs[1]!, walk(actor + 1, after, live, true, `${history}_${jammed ? "C" : "J"}_`, prob * probs[1]!));
    return out;
  };
  return walk(0, [...BLINDS], [0, 1, 2], false, "", 1);
}

function deals(classes: number): number[][] {
  const out: number[][] = [];
  for (let a = 0; a < classes; a++)
    for (let b = 0; b < classes; b++) for (let c = 0; c < classes; c++) out.push([a, b, c]);
  return out;
}

interface Brute {
  value: number[];
  bestResponse: number[];
  rake: number;
  /** Chance that each decision is reached. */
  reach: Map<string, number>;
  /** EV of each action for each class, relative to folding, where the others reach the decision. */
  evs: Map<string, { ev: number[][]; mass: number[] }>;
}

/** Everything by enumeration: values, best responses (best pure plan per class), reaches and EVs. */
function bruteForce(spec: ThreeHandedSpec, split: Split, policy: Policy): Brute {
  const n = spec.combos.length;
  const total = spec.combos.reduce((x, y) => x + y, 0);
  const prior = spec.combos.map((c) => c / total);
  const chance = (deal: readonly number[]) => deal.reduce((x, c) => x * prior[c]!, 1);
  const all = deals(n);

  const value = [0, 0, 0];
  let rake = 0;
  const reach = new Map<string, number>();
  const decisions = new Map<string, { actor: number; invested: number }>();
  for (const deal of all) {
    const w = chance(deal);
    const r = play(spec, split, deal, policy, (v) => {
      reach.set(v.history, (reach.get(v.history) ?? 0) + w * v.prob);
      decisions.set(v.history, { actor: v.actor, invested: v.committed[v.actor]! });
    });
    for (let i = 0; i < 3; i++) value[i]! += w * r.net[i]!;
    rake += w * r.rake;
  }
  // Reach every decision at least once whatever the policy: list them with a uniform policy.
  play(
    spec,
    split,
    all[0]!,
    () => [0.5, 0.5],
    (v) => {
      decisions.set(v.history, { actor: v.actor, invested: v.committed[v.actor]! });
      if (!reach.has(v.history)) reach.set(v.history, 0);
    },
  );

  // A seat's value with class `cls` when it plays `own` (the others play `policy`), and the chance that
  // the others reach each of the seat's decisions on the way.
  const seatValue = (
    seat: number,
    cls: number,
    own: Policy,
    mass?: Map<string, number>,
    through?: string,
  ) => {
    let v = 0;
    for (const deal of all) {
      if (deal[seat] !== cls) continue;
      const w = chance(deal) / prior[cls]!;
      const mixed: Policy = (s, h, c) => (s === seat ? own(s, h, c) : policy(s, h, c));
      const r = play(
        spec,
        split,
        deal,
        mixed,
        (x) => {
          if (mass && x.actor === seat) mass.set(x.history, (mass.get(x.history) ?? 0) + w * x.prob);
        },
        through,
      );
      v += w * r.net[seat]!;
    }
    return v;
  };

  const bestResponse = [0, 0, 0];
  for (let seat = 0; seat < 3; seat++) {
    const mine = [...decisions].filter(([, d]) => d.actor === seat).map(([h]) => h);
    for (let cls = 0; cls < n; cls++) {
      let best = Number.NEGATIVE_INFINITY;
      // Every pure plan: bit k of `plan` is the action at the seat's k-th decision.
      for (let plan = 0; plan < 1 << mine.length; plan++) {
        const pure: Policy = (_s, h) => ((plan >> mine.indexOf(h)) & 1 ? [0, 1] : [1, 0]);
        best = Math.max(best, seatValue(seat, cls, pure));
      }
      bestResponse[seat]! += prior[cls]! * best;
    }
  }

  // EV of an action: the seat's expected result over the hands that pass the decision, given that the
  // others reach it and the seat takes the action (each seat acts once, so it has no other decision on the
  // way), plus the chips it has in.
  const evs = new Map<string, { ev: number[][]; mass: number[] }>();
  for (const [history, d] of decisions) {
    const ev = [new Array<number>(n).fill(0), new Array<number>(n).fill(0)];
    const mass = new Array<number>(n).fill(0);
    for (let cls = 0; cls < n; cls++) {
      for (const a of [0, 1]) {
        const m = new Map<string, number>();
        const only: Policy = (_s, h) => (h === history ? (a === 0 ? [1, 0] : [0, 1]) : [0, 0]);
        const cv = seatValue(d.actor, cls, only, m, history);
        mass[cls] = m.get(history) ?? 0;
        ev[a]![cls] = mass[cls]! > 0 ? cv / mass[cls]! + d.invested : Number.NaN;
      }
    }
    evs.set(history, { ev, mass });
  }
  return { value, bestResponse, rake, reach, evs };
}

/** The published strategies of the solver as a policy. */
function policyOf(solver: CfrSolver): Policy {
  const n = solver.n;
  const byHistory = new Map(solver.decisionResults().map((d) => [d.node.history, d]));
  return (seat, history, cls) => {
    const d = byHistory.get(history);
    if (!d || d.node.actor !== seat || d.node.actions.length !== 2) throw new Error(`no decision ${history}`);
    return [d.strategy[cls]!, d.strategy[n + cls]!];
  };
}

/** Checks the solver's evaluation of its current published strategies against the brute force. */
function checkAgainstBruteForce(solver: CfrSolver, spec: ThreeHandedSpec, split: Split): Brute {
  const engine = solver.evaluate();
  const brute = bruteForce(spec, split, policyOf(solver));
  for (let s = 0; s < 3; s++) {
    expect(engine[s]!.value).toBeCloseTo(brute.value[s]!, 9);
    expect(engine[s]!.bestResponse).toBeCloseTo(brute.bestResponse[s]!, 9);
    expect(engine[s]!.exploitability).toBeCloseTo(brute.bestResponse[s]! - brute.value[s]!, 9);
  }
  const n = solver.n;
  const results = solver.decisionResults();
  expect(results.length).toBe(brute.evs.size);
  for (const d of results) {
    expect(d.reach).toBeCloseTo(brute.reach.get(d.node.history)!, 12);
    const { ev, mass } = brute.evs.get(d.node.history)!;
    for (let c = 0; c < n; c++) {
      if (mass[c]! < 1e-6) continue;
      for (const a of [0, 1]) {
        const got = d.evs![a * n + c]!;
        expect(Math.abs(got - ev[a]![c]!), `${d.node.history} action ${a} class ${c}`).toBeLessThan(1e-8);
      }
    }
  }
  return brute;
}

function run(solver: CfrSolver, iterations: number): CfrSolver {
  while (solver.iterations < iterations) solver.iterate();
  return solver;
}

const PARAMS: [string, CfrParams][] = [
  ["alternating DCFR", { ...DCFR_PARAMS, alternate: true }],
  ["simultaneous DCFR", DCFR_PARAMS],
  ["alternating DCFR with a tremble", { ...DCFR_PARAMS, alternate: true, tremble: 0.002 }],
  [
    "predictive CFR+ trembling every action",
    { ...DCFR_PARAMS, predictive: true, tremble: 0.002, trembleEvery: true },
  ],
];

// Classes ranked by a strength that is not their index; one game with equal weights, one with unequal.
const STRENGTH_8 = [0, 3, 6, 1, 4, 7, 2, 5];
const STRENGTH_6 = [3, 5, 0, 2, 4, 1];
const JAM_FOLD: [string, ThreeHandedSpec, Split][] = [
  [
    "8 equally likely classes, 5 bb deep",
    { stacks: [5, 5, 5], combos: [1, 1, 1, 1, 1, 1, 1, 1], share: strengthShare(STRENGTH_8) },
    strongestWins(STRENGTH_8),
  ],
  [
    "6 unequally likely classes, 6 bb deep",
    { stacks: [6, 6, 6], combos: [6, 4, 1, 3, 2, 5], share: strengthShare(STRENGTH_6) },
    strongestWins(STRENGTH_6),
  ],
];

describe("three-handed jam/fold against a brute-force best response", () => {
  for (const [name, spec, split] of JAM_FOLD) {
    for (const [paramName, params] of PARAMS) {
      it(`${name}, ${paramName}: values, best responses, reaches and EVs after 50 and 500 iterations`, () => {
        const solver = new CfrSolver(threeHandedJamFold(spec), params);
        for (const iterations of [50, 500]) checkAgainstBruteForce(run(solver, iterations), spec, split);
      });
    }
  }

  it("three-way all-ins are exact: the independent duels of a strict order give the strongest hand the pot", () => {
    const spec = JAM_FOLD[0]![1];
    const duels = independentDuels(spec.share);
    const cards = strongestWins(STRENGTH_8);
    for (const deal of deals(8)) {
      const a = duels([0, 1, 2], deal);
      const b = cards([0, 1, 2], deal);
      for (let s = 0; s < 3; s++) expect(a[s]).toBeCloseTo(b[s]!, 15);
    }
  });

  for (const [name, spec, split] of JAM_FOLD) {
    it(`${name}: every seat's exploitability falls below 0.001 bb, and the brute force confirms it`, () => {
      const solver = new CfrSolver(threeHandedJamFold(spec), { ...DCFR_PARAMS, alternate: true });
      let result = solver.evaluate();
      while (result.some((r) => r.exploitability >= 1e-3) && solver.iterations < 20_000) {
        run(solver, solver.iterations + 100);
        result = solver.evaluate();
      }
      const brute = checkAgainstBruteForce(solver, spec, split);
      for (let s = 0; s < 3; s++) {
        expect(result[s]!.exploitability).toBeLessThan(1e-3);
        expect(brute.bestResponse[s]! - brute.value[s]!).toBeLessThan(1e-3);
        expect(brute.bestResponse[s]! - brute.value[s]!).toBeGreaterThanOrEqual(-1e-12);
      }
      // The published (purified) strategies are evaluated exactly too.
      solver.finalize();
      checkAgainstBruteForce(solver, spec, split);
    });
  }
});

describe("three-way showdowns with side pots, random duels and rake", () => {
  const classes = 4;
  const share = randomShare(classes, 20240607);
  const split = independentDuels(share);
  const rake = (pot: number) => Math.min(0.05 * pot, 1);
  const CASES: [string, ThreeHandedSpec][] = [
    // BTN jams 10, SB calls 8, BB calls 5: main pot 15 three ways, side pot 6 BTN-SB, 2 back to the BTN.
    ["stacks 10/8/5", { stacks: [10, 8, 5], combos: [1, 1, 1, 1], share }],
    // BTN jams 6, SB calls 3, BB calls 6: main pot 9 three ways, side pot 6 BTN-BB.
    ["stacks 6/3/9", { stacks: [6, 3, 9], combos: [1, 1, 1, 1], share }],
    ["stacks 10/8/5 with rake", { stacks: [10, 8, 5], combos: [1, 1, 1, 1], share, rake }],
    ["stacks 6/3/9 with rake", { stacks: [6, 3, 9], combos: [1, 1, 1, 1], share, rake }],
  ];

  it("the games have three-way main pots with side pots and raked pots", () => {
    const game = threeHandedJamFold(CASES[2]![1]);
    const allIn = game.root.type === "decision" ? game.root.children[1] : null;
    const called = allIn?.type === "decision" ? allIn.children[1] : null;
    const showdown = called?.type === "decision" ? called.children[1] : null;
    expect(showdown?.type).toBe("showdown");
    if (showdown?.type !== "showdown") return;
    expect(showdown.invested).toEqual([8, 8, 5]);
    expect(showdown.rake).toBeCloseTo(1, 12);
    expect(showdown.pots.map((p) => p.players)).toEqual([
      [0, 1, 2],
      [0, 1],
    ]);
    const amounts = showdown.pots.map((p) => p.amount);
    expect(amounts[0]).toBeCloseTo((15 * 20) / 21, 12);
    expect(amounts[1]).toBeCloseTo((6 * 20) / 21, 12);
  });

  for (const [name, spec] of CASES) {
    it(`${name}: chips are conserved (values sum to minus the expected rake) and match the brute force`, () => {
      for (const [, params] of PARAMS) {
        const solver = new CfrSolver(threeHandedJamFold(spec), params);
        for (const iterations of [1, 3, 7, 40]) {
          run(solver, iterations);
          const brute = checkAgainstBruteForce(solver, spec, split);
          const sum = solver.evaluate().reduce((x, r) => x + r.value, 0);
          if (spec.rake) expect(brute.rake).toBeGreaterThan(0.01);
          else expect(brute.rake).toBe(0);
          expect(sum).toBeCloseTo(-brute.rake, 9);
        }
      }
    });
  }
});

describe("three-way showdowns with board-conditioned duels (the multiway model)", () => {
  const classes = 4;
  const share = randomShare(classes, 20261124);
  const bucketed = randomBucketed(classes, 3, 7);
  const split = bucketedDuels(share, bucketed);
  const rake = (pot: number) => Math.min(0.05 * pot, 1);
  const CASES: [string, ThreeHandedSpec][] = [
    ["stacks 10/8/5", { stacks: [10, 8, 5], combos: [1, 2, 1, 3], share, bucketed }],
    ["stacks 6/3/9 with rake", { stacks: [6, 3, 9], combos: [2, 1, 1, 1], share, bucketed, rake }],
    ["stacks 6/6/6", { stacks: [6, 6, 6], combos: [1, 1, 1, 1], share, bucketed }],
  ];

  it("a deal's shares sum to the pot, and a bucket of certain wins gives the sweeper the pot", () => {
    for (const deal of deals(classes)) {
      const s = split([0, 1, 2], deal);
      expect(s.reduce((x, y) => x + y, 0)).toBeCloseTo(1, 12);
    }
    const certain = { buckets: 2, pi: () => 0.5, share: (i: number) => (i === 0 ? 1 : 0) };
    const s = bucketedDuels(share, certain)([0, 1, 2], [0, 1, 2]);
    expect(s[0]).toBeCloseTo(1, 12);
  });

  for (const [name, spec] of CASES) {
    it(`${name}: values, best responses and EVs match the brute force; chips are conserved`, () => {
      for (const [, params] of PARAMS) {
        const solver = new CfrSolver(threeHandedJamFold(spec), params);
        for (const iterations of [1, 7, 60]) {
          run(solver, iterations);
          const brute = checkAgainstBruteForce(solver, spec, split);
          const sum = solver.evaluate().reduce((x, r) => x + r.value, 0);
          expect(sum).toBeCloseTo(-brute.rake, 9);
        }
      }
    });
  }

  it("differs from independent duels where the buckets correlate the duels", () => {
    const spec = CASES[2]![1];
    const withBuckets = new CfrSolver(threeHandedJamFold(spec), DCFR_PARAMS);
    const { bucketed: _b, ...plain } = spec;
    const without = new CfrSolver(threeHandedJamFold(plain), DCFR_PARAMS);
    run(withBuckets, 20);
    run(without, 20);
    const a = withBuckets.evaluate().map((r) => r.value);
    const b = without.evaluate().map((r) => r.value);
    expect(Math.max(...a.map((x, i) => Math.abs(x - b[i]!)))).toBeGreaterThan(1e-3);
  });
});

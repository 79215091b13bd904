/**
 * `node packages/realization/dist/cli.js <command>` (after `pnpm build`):
 *
 *   lines     --packs nl/v2:100,nlmtt8:40          the heads-up flop lines of those packs (pot, stack, ranges)
 *   solve     --packs ... --boards 8 --out DIR      solve every line's flops not yet in DIR (resumable)
 *             [--lines id,id] [--shard k/n] [--threads N] [--target PCT] [--max-iterations N] [--budget S]
 *             [--board-seconds S]   (stop a board's iterations after S seconds; its file says stoppedEarly)
 *             [--flop-set balanced|balanced-per-line|representative]   (default balanced, src/flops.ts;
 *                                                   round 0 is representative; per-line: each line its own)
 *             [--range-floor W]   (every class at least W, 0.005 from round 1 on: src/solve.ts rangeFloor)
 *             [--floor-by solve|best-response]   (how classes under the floor get values: solve.ts floorBy)
 *             [--tree flop=75%,cap=none]   (the betting tree, over the realization tree's: solve.ts parseTree)
 *   plan      --packs ... --boards 8 --out FILE      the same jobs as a JSON file (then `solve --jobs FILE`
 *                                                   needs no packs: for another machine; with --lines,
 *                                                   only those lines' jobs: src/batch.ts planLines)
 *             [--blend-with EARLIER.json [--blend W]]   each line's ranges averaged with an earlier plan's,
 *                                                   W its share (default 0.5): src/batch.ts blendPlan
 *   fit       --in DIR[,DIR] --out FILE [--min-boards 6] [--min-combos N] [--params-out FILE]
 *                                                   fit the v4 realization model to every line with enough
 *                                                   boards; per line and player the v3 model's, the fit's and
 *                                                   the left-out fit's gap and correlation to the solves;
 *                                                   --params-out writes the fitted parameters (a tree
 *                                                   config's model.grounded); --class-ridge X|none sets the
 *                                                   class effects' shrinkage (none: hand features only);
 *                                                   --class-weights range|mixed: how the fit weighs classes
 *                                                   (src/fit.ts ClassWeighting; default range);
 *                                                   --class-basis shared|roles: how the class effects span
 *                                                   the roles (src/fit.ts ClassEffectBasis; default shared);
 *                                                   --class-group-ridge Y: grouped class effects (a class's
 *                                                   effect its group's plus its own deviation; --class-ridge
 *                                                   then shrinks the deviation, Y the groups' effects);
 *                                                   --class-smooth-ridge Z: smoothed class effects
 *                                                   (neighbouring classes, A3s and A2s, 33 and 22, pulled
 *                                                   toward each other with weight Z: src/class-groups.ts
 *                                                   CLASS_NEIGHBOURS);
 *                                                   --floor-ridge X: fit the floor effect (what classes
 *                                                   valued by a best response under the range floor
 *                                                   realize beyond the range's; src/fit.ts floorEffect)
 *                                                   with ridge X; the served model leaves it out;
 *                                                   --min-combos leaves out lines where a player's range,
 *                                                   as the pack plays it, holds fewer combos (report.ts);
 *                                                   --line-ridge X: the shrinkage of each line's own class
 *                                                   effects (src/line-effects.ts; default 0.001);
 *                                                   --line-group-ridge Y: grouped line effects (a class's
 *                                                   effect its group's plus its own deviation; --line-ridge
 *                                                   then shrinks the deviation, Y the groups' effects)
 *                                                   --line-smooth-ridge Z: neighbouring classes' line
 *                                                   effects pulled toward each other (src/line-effects.ts)
 *                                                   --earlier DIR[,DIR]: earlier rounds of the lines --in
 *                                                   holds, fitted beside them; a line's own effects average
 *                                                   its rounds (report.ts, `earlier`)
 *   movement  --from DIR[,DIR] --to DIR[,DIR] [--out FILE] [--population DIR]   how far each line's realization per class moved
 *                                                   between two rounds (src/rounds.ts; bar 0.03)
 *   aggregate --in DIR[,DIR] --out FILE             per-class realization per line, beside the v3 model's
 *   population --in DIR[,DIR] --out DIR             every flop's equity moments for each line's ranges
 *             [--flops N]                           (src/population.ts; skips lines already there; --flops:
 *                                                   every k-th flop, about N, for a quick check)
 *   (aggregate, fit, movement: --population DIR estimates each class's realization with every flop's equity where
 *   DIR holds the line's ranges: src/estimator.ts; otherwise the ratio over the solved flops)
 *   toy                                             the toy oracle (src/toy): the grounded iteration seven
 *                                                   ways against the whole game solved (about a minute)
 *   (several folders: where two hold a line, the later folder's boards of it replace the earlier's)
 *
 * Packs are `game:stack`; `--packs-dir` (data/packs) reads them.
 */

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { loadHeadsUpEquity } from "@ranges/solver";
import { RangeStore } from "@ranges/store";
import { aggregate, readBoardSets } from "./aggregate.js";
import { blendPlan, planBatch, planFromJson, planLines, planToJson, runBatch } from "./batch.js";
import { type PopulationSet, readPopulations } from "./estimator.js";
import type { ClassEffectBasis, ClassWeighting } from "./fit.js";
import type { FlopSet } from "./flops.js";
import { EARLY_LINES, LineError, readLine, STANDARD_LINES } from "./lines.js";
import { treeModelPrediction } from "./model.js";
import { fitReport, type SeriesStats } from "./report.js";

const fmt = (s: SeriesStats | null) =>
  s ? `gap ${s.meanAbsGap.toFixed(3)} r ${s.correlation.toFixed(2)}` : "-";

import { writePopulations } from "./population-files.js";
import { MOVEMENT_BAR, roundMovement } from "./rounds.js";
import {
  DEFAULT_SETTINGS,
  parseTree,
  type RealizationTree,
  type SolveSettings,
  TreeSpecError,
} from "./solve.js";
import { toyGame } from "./toy/game.js";
import { ORACLE_TOY, oracleReport } from "./toy/grounded.js";

const USAGE =
  "usage: realization lines|solve|plan|aggregate|population|fit|movement|toy [options] (the options: the comment at the top of packages/realization/src/cli.ts)";
const [command, ...rest] = process.argv.slice(2);
if (command === undefined || command === "--help" || command === "-h" || rest.includes("--help")) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(command === undefined ? 2 : 0);
}
const parsed = (() => {
  try {
    return parseOptions();
  } catch (err) {
    process.stderr.write(`realization: ${(err as Error).message}\n${USAGE}\n`);
    return process.exit(2);
  }
})();
const { values } = parsed;

function parseOptions() {
  return parseArgs({
    args: rest,
    options: {
      packs: { type: "string", default: "nl/v2:100" },
      "packs-dir": { type: "string", default: "data/packs" },
      lines: { type: "string" },
      boards: { type: "string", default: "8" },
      out: { type: "string" },
      "blend-with": { type: "string" },
      blend: { type: "string" },
      in: { type: "string" },
      shard: { type: "string" },
      threads: { type: "string" },
      target: { type: "string" },
      "max-iterations": { type: "string" },
      budget: { type: "string" },
      "board-seconds": { type: "string" },
      jobs: { type: "string" },
      "min-boards": { type: "string" },
      "min-combos": { type: "string" },
      "params-out": { type: "string" },
      "flop-set": { type: "string", default: "balanced" },
      "class-ridge": { type: "string" },
      "line-ridge": { type: "string" },
      "line-group-ridge": { type: "string" },
      "line-smooth-ridge": { type: "string" },
      earlier: { type: "string" },
      "class-weights": { type: "string" },
      "class-basis": { type: "string" },
      "class-group-ridge": { type: "string" },
      "class-smooth-ridge": { type: "string" },
      "floor-ridge": { type: "string" },
      "range-floor": { type: "string" },
      "floor-by": { type: "string" },
      tree: { type: "string" },
      from: { type: "string" },
      to: { type: "string" },
      population: { type: "string" },
      flops: { type: "string" },
    },
  });
}

const fail = (message: string): never => {
  process.stderr.write(`realization: ${message}\n`);
  process.exit(2);
};
const num = (name: string, raw: string | undefined): number | undefined => {
  if (raw === undefined) return undefined;
  const x = Number(raw);
  if (!Number.isFinite(x) || x <= 0) fail(`--${name} must be a positive number, got "${raw}"`);
  return x;
};
const flopSet = (): FlopSet => {
  const set = values["flop-set"];
  if (set !== "balanced" && set !== "balanced-per-line" && set !== "representative")
    fail(`--flop-set is balanced, balanced-per-line or representative, got "${set}"`);
  return set as FlopSet;
};
/** `--class-weights`: range or mixed (src/fit.ts, `ClassWeighting`). */
function classBasis(raw: string): ClassEffectBasis {
  if (raw !== "shared" && raw !== "roles") return fail(`--class-basis is shared or roles, got "${raw}"`);
  return raw;
}

function classWeights(raw: string): ClassWeighting {
  if (raw !== "range" && raw !== "mixed") return fail(`--class-weights is range or mixed, got "${raw}"`);
  return raw;
}

/** `--floor-by`: solve or best-response, and only with a floor to apply. */
function floorBy(raw: string, floor: string | undefined): "solve" | "best-response" {
  if (raw !== "solve" && raw !== "best-response")
    return fail(`--floor-by is solve or best-response, got "${raw}"`);
  if (floor === undefined)
    fail("--floor-by needs --range-floor W (the weight the classes under it count at)");
  return raw;
}

/** `--tree TEXT`: a betting tree (`parseTree`), or the refusal's message and exit code 2. */
function tree(text: string): RealizationTree {
  try {
    return parseTree(text);
  } catch (error) {
    if (error instanceof TreeSpecError) return fail(error.message);
    throw error;
  }
}

/** `--population DIR`: the population files, when given. */
const populations = (): PopulationSet | undefined =>
  values.population ? readPopulations(resolve(values.population)) : undefined;

/** The folders of `--in` (comma-separated; a later folder's lines replace an earlier's). */
const inDirs = (): string[] => values.in!.split(",").map((d) => resolve(d));
const packs = values.packs!.split(",").map((p) => {
  const [game, stack] = p.trim().split(":");
  const s = Number(stack);
  if (!game || !Number.isFinite(s)) fail(`--packs takes game:stack pairs, got "${p}"`);
  return { game: game!, stack: s };
});
/** The lines `--lines` may name: the standard ones and the first seat's. */
const KNOWN_LINES = [...STANDARD_LINES, ...EARLY_LINES];
const lines = values.lines
  ? values.lines
      .split(",")
      .map(
        (id) =>
          KNOWN_LINES.find((l) => l.id === id.trim()) ??
          fail(`unknown line ${id}; lines: ${KNOWN_LINES.map((l) => l.id).join(", ")}`),
      )
  : STANDARD_LINES;

if (command === "lines") {
  const store = RangeStore.open({ packsDir: resolve(values["packs-dir"]!) });
  for (const { game, stack } of packs) {
    for (const spec of lines) {
      try {
        const l = readLine(store, game, stack, spec);
        process.stdout.write(
          `${game} ${stack}bb ${l.id} (${l.kind}): ${l.description}; ${l.oop} out of position, ${l.ip} in position; pot ${l.pot}bb, behind ${l.behind}bb, SPR ${(l.behind / l.pot).toFixed(2)}\n`,
        );
      } catch (error) {
        if (!(error instanceof LineError)) throw error;
        process.stdout.write(`${game} ${stack}bb ${spec.id}: none (${error.message})\n`);
      }
    }
  }
} else if (command === "solve") {
  if (!values.out) fail("solve needs --out DIR");
  const out = resolve(values.out!);
  mkdirSync(out, { recursive: true });
  const settings: SolveSettings = {
    ...DEFAULT_SETTINGS,
    ...(values.target ? { targetPct: num("target", values.target)! } : {}),
    ...(values["max-iterations"] ? { maxIterations: num("max-iterations", values["max-iterations"])! } : {}),
    ...(values.threads ? { threads: num("threads", values.threads)! } : {}),
    ...(values["board-seconds"] ? { maxSeconds: num("board-seconds", values["board-seconds"])! } : {}),
    ...(values["range-floor"] ? { rangeFloor: num("range-floor", values["range-floor"])! } : {}),
    ...(values["floor-by"] ? { floorBy: floorBy(values["floor-by"], values["range-floor"]) } : {}),
    ...(values.tree ? { tree: tree(values.tree) } : {}),
  };
  let shard: { index: number; count: number } | undefined;
  if (values.shard) {
    const m = /^(\d+)\/(\d+)$/.exec(values.shard);
    if (!m || Number(m[1]) >= Number(m[2])) fail(`--shard takes k/n with k < n, got "${values.shard}"`);
    shard = { index: Number(m![1]), count: Number(m![2]) };
  }
  let plan: ReturnType<typeof planBatch>;
  if (values.jobs) {
    plan = planFromJson(readFileSync(resolve(values.jobs), "utf8"), out);
    if (values.lines) {
      try {
        plan = planLines(
          plan,
          lines.map((l) => l.id),
        );
      } catch (error) {
        fail(`--lines with --jobs: ${(error as Error).message}`);
      }
    }
  } else {
    const store = RangeStore.open({ packsDir: resolve(values["packs-dir"]!) });
    plan = planBatch(store, packs, lines, num("boards", values.boards)!, out, flopSet());
    store.close();
  }
  for (const s of plan.skipped) process.stderr.write(`skipped ${s.game} ${s.stack}bb ${s.line}: ${s.why}\n`);
  process.stderr.write(`${plan.jobs.length} jobs\n`);
  const solved = await runBatch(plan, settings, {
    ...(shard ? { shard } : {}),
    ...(values.budget ? { budgetSeconds: num("budget", values.budget)! } : {}),
    log: (line) => process.stderr.write(`${new Date().toISOString()} ${line}\n`),
  });
  process.stdout.write(`solved ${solved} boards into ${out}\n`);
} else if (command === "plan") {
  if (!values.out) fail("plan needs --out FILE");
  const store = RangeStore.open({ packsDir: resolve(values["packs-dir"]!) });
  let plan = planBatch(store, packs, lines, num("boards", values.boards)!, ".", flopSet());
  store.close();
  if (values["blend-with"]) {
    const share = num("blend", values.blend ?? "0.5")!;
    try {
      plan = blendPlan(plan, planFromJson(readFileSync(resolve(values["blend-with"]), "utf8"), "."), share);
    } catch (error) {
      fail(`--blend-with: ${(error as Error).message}`);
    }
  }
  writeFileSync(resolve(values.out!), planToJson(plan));
  process.stdout.write(`${plan.jobs.length} jobs, ${plan.skipped.length} lines skipped -> ${values.out}\n`);
} else if (command === "aggregate") {
  if (!values.in || !values.out) fail("aggregate needs --in DIR and --out FILE");
  const result = aggregate(readBoardSets(inDirs()), treeModelPrediction(), populations());
  writeFileSync(
    resolve(values.out!),
    `${JSON.stringify({ model: "v3 contest model (data/trees/<game>.json)", method: "packages/realization", lines: result }, null, 1)}\n`,
  );
  for (const l of result) {
    const p = (s: "oop" | "ip") =>
      `${l.players[s].seat} ${l.players[s].realizedSolved} solved / ${l.players[s].realizedModel} model (gap ${l.players[s].meanAbsGap}, r ${l.players[s].correlation})`;
    process.stdout.write(`${l.pack} SPR ${l.spr}, ${l.boards} boards: ${p("oop")}; ${p("ip")}\n`);
  }
} else if (command === "fit") {
  if (!values.in || !values.out) fail("fit needs --in DIR and --out FILE");
  const boards = readBoardSets(inDirs());
  const report = fitReport(boards, loadHeadsUpEquity(), treeModelPrediction(), {
    minBoards: num("min-boards", values["min-boards"]) ?? 6,
    ...(values["min-combos"] ? { minCombos: num("min-combos", values["min-combos"])! } : {}),
    ...(values["class-ridge"] === "none"
      ? { classRidge: Number.POSITIVE_INFINITY }
      : values["class-ridge"]
        ? { classRidge: num("class-ridge", values["class-ridge"])! }
        : {}),
    weighting: classWeights(values["class-weights"] ?? "range"),
    classBasis: classBasis(values["class-basis"] ?? "shared"),
    ...(values["floor-ridge"] ? { floorRidge: num("floor-ridge", values["floor-ridge"])! } : {}),
    ...(values["class-smooth-ridge"]
      ? { classSmoothRidge: num("class-smooth-ridge", values["class-smooth-ridge"])! }
      : {}),
    ...(values["class-group-ridge"]
      ? { classGroupRidge: num("class-group-ridge", values["class-group-ridge"])! }
      : {}),
    populations: populations(),
    ...(values["line-ridge"] ? { lineRidge: num("line-ridge", values["line-ridge"])! } : {}),
    ...(values["line-group-ridge"]
      ? { lineGroupRidge: num("line-group-ridge", values["line-group-ridge"])! }
      : {}),
    ...(values["line-smooth-ridge"]
      ? { lineSmoothRidge: num("line-smooth-ridge", values["line-smooth-ridge"])! }
      : {}),
    ...(values.earlier ? { earlier: readBoardSets(values.earlier.split(",")) } : {}),
  });
  writeFileSync(resolve(values.out!), `${JSON.stringify(report, null, 1)}\n`);
  if (values["params-out"]) {
    const grounded = {
      name: "grounded-v4",
      source: `realization fit --in ${values.in} --min-boards ${report.minBoards}${values["min-combos"] ? ` --min-combos ${values["min-combos"]}` : ""}${values.population ? ` --population ${values.population}` : ""}${values["line-ridge"] ? ` --line-ridge ${values["line-ridge"]}` : ""}${values["line-group-ridge"] ? ` --line-group-ridge ${values["line-group-ridge"]}` : ""}${values["line-smooth-ridge"] ? ` --line-smooth-ridge ${values["line-smooth-ridge"]}` : ""}${values.earlier ? ` --earlier ${values.earlier}` : ""} (${report.lines.length} lines, ${boards.length} boards; ${report.method}; ridge ${report.ridge}, class ridge ${report.classRidge}, class weights ${report.weighting}, class basis ${report.classBasis}${report.classGroupRidge === null ? "" : `, class group ridge ${report.classGroupRidge}`}${report.classSmoothRidge === null ? "" : `, class smooth ridge ${report.classSmoothRidge}`}${report.floorRidge === null ? "" : `, floor effect ridge ${report.floorRidge}: ${report.floorEffect!.join(" ")}`})`,
      ...report.params,
    };
    writeFileSync(resolve(values["params-out"]), `${JSON.stringify(grounded)}\n`);
  }
  for (const l of report.lines) {
    const p = (s: "oop" | "ip") => {
      const x = l.players[s];
      return `${x.seat} v3 ${fmt(x.v3)}, fit ${fmt(x.inSample)}, left out ${fmt(x.outOfSample)} (by combos: fit ${fmt(x.inSampleByCombos)}, left out ${fmt(x.outOfSampleByCombos)})`;
    };
    process.stdout.write(`${l.pack} (SPR ${l.spr}, ${l.boards} boards): ${p("oop")}; ${p("ip")}\n`);
  }
  const s = report.summary;
  process.stdout.write(
    `${s.rows} rows: fit ${fmt(s.inSample)}, left out ${fmt(s.outOfSample)}, with the lines' own effects ${fmt(s.withLineEffects)} (means); at the bar ${s.atBar.inSample} in sample, ${s.atBar.outOfSample} left out, ${s.atBar.withLineEffects} with the lines' own effects\n`,
  );
} else if (command === "population") {
  if (!values.in || !values.out) fail("population needs --in DIR[,DIR] and --out DIR");
  const written = writePopulations(
    readBoardSets(inDirs()),
    resolve(values.out!),
    (line) => process.stderr.write(`${new Date().toISOString()} ${line}\n`),
    num("flops", values.flops),
  );
  process.stdout.write(`${written.length} population files written to ${values.out}\n`);
} else if (command === "movement") {
  if (!values.from || !values.to)
    fail("movement needs --from DIR[,DIR] and --to DIR[,DIR] (two rounds' boards)");
  const dirs = (list: string) => list.split(",").map((d) => resolve(d.trim()));
  const m = roundMovement(
    aggregate(readBoardSets(dirs(values.from!)), undefined, populations()),
    aggregate(readBoardSets(dirs(values.to!)), undefined, populations()),
  );
  if (values.out) writeFileSync(resolve(values.out), `${JSON.stringify(m, null, 1)}\n`);
  for (const l of m.lines) {
    const big = l.largest ? `; most: ${l.largest.class} ${l.largest.before} -> ${l.largest.after}` : "";
    process.stdout.write(`${l.pack} ${l.seat}: ${l.movement} over ${l.classes} classes${big}\n`);
  }
  if (m.onlyAfter.length > 0) process.stdout.write(`not in the earlier round: ${m.onlyAfter.join(", ")}\n`);
  process.stdout.write(
    `largest movement ${m.max} (bar ${MOVEMENT_BAR}): ${m.converged ? "converged" : "not converged"}\n`,
  );
} else if (command === "toy") {
  const game = toyGame(ORACLE_TOY);
  process.stdout.write(
    "| method | rounds x iterations | last movement (bb) | exploitability in the whole game (bb/hand) | over the last third of the rounds | SB value (bb/hand) |\n|---|---:|---:|---:|---:|---:|\n",
  );
  for (const r of oracleReport(game)) {
    const its =
      r.flopIterationsPerRound === r.iterationsPerRound
        ? `${r.iterationsPerRound}`
        : `${r.iterationsPerRound} (flop ${r.flopIterationsPerRound})`;
    const whole = r.method.startsWith("whole");
    process.stdout.write(
      `| ${r.method} | ${r.rounds} x ${its} | ${whole ? "-" : r.movement.toFixed(4)} | ${r.exploitability.toFixed(5)} | ${whole ? "-" : `${r.lateRange[1].toFixed(4)} to ${r.lateRange[0].toFixed(4)}`} | ${r.sbValue.toFixed(5)} |\n`,
    );
  }
} else {
  fail(`unknown command "${command}"; ${USAGE}`);
}

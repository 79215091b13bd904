/**
 * The preflop terminal model's prediction for a solved line: the share it gives a class against the other
 * player's range at the line's stack-to-pot ratio, over the class's all-in equity against that range (both
 * from the exact heads-up table), as `scripts/realized-equity.mjs` computes it for the committed packs.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildShareMatrices, loadHeadsUpEquity, repoRoot, type ShareMatrices } from "@ranges/solver";
import type { ModelPrediction, StoredBoard } from "./aggregate.js";

const N = 169;

/** The prediction of each game's committed tree config (`data/trees/<game>.json`, its `model`). */
export function treeModelPrediction(root = repoRoot()): ModelPrediction {
  const table = loadHeadsUpEquity();
  const cache = new Map<string, ShareMatrices>();
  const sharesOf = (game: string): ShareMatrices => {
    let s = cache.get(game);
    if (!s) {
      const config = JSON.parse(
        readFileSync(join(root, "data", "trees", `${game.replace("/", "-")}.json`), "utf8"),
      ) as { model: Parameters<typeof buildShareMatrices>[0] };
      s = buildShareMatrices(config.model, table.eq, table.w);
      cache.set(game, s);
    }
    return s;
  };
  return (line: StoredBoard, side, a) => {
    const shares = sharesOf(line.game);
    const isIp = side === "ip";
    const m = shares.matrices[shares.indexFor(false, line.behind / line.pot, isIp)]!;
    const allIn = shares.matrices[0]!;
    const opponent = line.ranges[isIp ? "oop" : "ip"];
    let share = 0;
    let eq = 0;
    for (let b = 0; b < N; b++) {
      const o = opponent[b]!;
      if (o === 0) continue;
      share += m[a * N + b]! * o;
      eq += allIn[a * N + b]! * o;
    }
    return eq > 0 ? share / eq : null;
  };
}

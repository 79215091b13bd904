/**
 * Builds the PLO play-features table and writes data/equity/plo-play.bin (how each class's equity is spread
 * over flops and runouts and how often it is the nuts; method and file format in src/plo/play-features.ts).
 *
 *   node packages/solver/scripts/build-plo-play.ts [--flops 6000] [--runouts 8] [--opponents 12] [--seed 13] [--out PATH]
 *
 * Deterministic: the same options give the same file byte for byte (one thread, a seeded generator). The
 * defaults are the committed table's; they take a few minutes on one core. Runs straight from the TypeScript
 * sources on Node >= 22.18 / 24 (type stripping); @ranges/core must be built (`pnpm build`).
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import "./run-from-source.ts";

const play: typeof import("../src/plo/play-features.ts") = await import("../src/plo/play-features.ts");
const d = play.PLO_PLAY_FEATURES_DEFAULTS;
const { values } = parseArgs({
  options: {
    flops: { type: "string", default: String(d.flops) },
    runouts: { type: "string", default: String(d.runoutsPerFlop) },
    opponents: { type: "string", default: String(d.opponentsPerBoard) },
    seed: { type: "string", default: String(d.seed) },
    out: { type: "string" },
  },
});
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const out = resolve(values.out ?? resolve(repoRoot, play.PLO_PLAY_FEATURES_FILE));
const started = performance.now();
const table = play.computePloPlayFeatures({
  flops: Number(values.flops),
  runoutsPerFlop: Number(values.runouts),
  opponentsPerBoard: Number(values.opponents),
  seed: Number(values.seed),
  onProgress: (done, total) => {
    if (done % 500 === 0 || done === total) {
      const s = (performance.now() - started) / 1000;
      process.stderr.write(`${done}/${total} flops, ${s.toFixed(1)}s\n`);
    }
  },
});
const bytes = play.serializePloPlayFeatures(table);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, bytes);
console.log(
  `wrote ${out}: ${bytes.length} bytes, ${table.flops} flops x ${table.runoutsPerFlop} runouts x ${table.opponentsPerBoard} opponents, seed ${table.seed}, ${((performance.now() - started) / 1000).toFixed(1)}s`,
);

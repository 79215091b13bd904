/**
 * Builds the PLO equity-against-a-random-hand table and writes data/equity/plo-random.bin (the equity feature
 * of the PLO abstraction; method and file format in src/plo/random-equity.ts).
 *
 *   node packages/solver/scripts/build-plo-equity.ts [--boards 32000] [--opponents 16] [--seed 11] [--out PATH]
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

const equity: typeof import("../src/plo/random-equity.ts") = await import("../src/plo/random-equity.ts");
const d = equity.PLO_RANDOM_EQUITY_DEFAULTS;
const { values } = parseArgs({
  options: {
    boards: { type: "string", default: String(d.boards) },
    opponents: { type: "string", default: String(d.opponentsPerBoard) },
    seed: { type: "string", default: String(d.seed) },
    out: { type: "string" },
  },
});
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const out = resolve(values.out ?? resolve(repoRoot, equity.PLO_RANDOM_EQUITY_FILE));
const started = performance.now();
const table = equity.computePloRandomEquity({
  boards: Number(values.boards),
  opponentsPerBoard: Number(values.opponents),
  seed: Number(values.seed),
  onProgress: (done, total) => {
    if (done % 500 === 0 || done === total) {
      const s = (performance.now() - started) / 1000;
      process.stderr.write(`${done}/${total} boards, ${s.toFixed(1)}s\n`);
    }
  },
});
const bytes = equity.serializePloRandomEquity(table);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, bytes);
const maxSe = table.se.reduce((m, x) => Math.max(m, x), 0);
const meanSe = table.se.reduce((a, b) => a + b, 0) / table.se.length;
console.log(
  `wrote ${out}: ${bytes.length} bytes, ${table.boards} boards x ${table.opponentsPerBoard} opponents, seed ${table.seed}, mean se ${meanSe.toFixed(4)}, max se ${maxSe.toFixed(4)}, ${((performance.now() - started) / 1000).toFixed(1)}s`,
);

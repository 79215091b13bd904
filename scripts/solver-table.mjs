// Writes the solver table of BENCHMARKS.md (between the solver-table markers) from the committed packs'
// headers: nodes, iterations, solve time and measured exploitability per game and stack.
// Run: node scripts/solver-table.mjs   (after `pnpm build`)
import { readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { RangeStore } from "../packages/store/dist/index.js";

const packsDir = new URL("../data/packs/", import.meta.url).pathname;
const file = new URL("../BENCHMARKS.md", import.meta.url).pathname;
const store = RangeStore.open({ packsDir });
const rows = [];
let bytes = 0;
let v3 = 0;
const versions = new Map();
const all = store
  .packStatus()
  .filter((s) => s.ok && s.stack !== null)
  .sort((a, b) => (a.game === b.game ? a.stack - b.stack : a.game < b.game ? -1 : 1));
const isPlo = (s) => s.game.startsWith("plo");
const packs = all.filter((s) => !isPlo(s));

/** What every row shows: the pack's meta and provenance, its algorithm, iterations and last four cells. */
function packCells(s) {
  const meta = store.packMeta(s.game, s.stack);
  const p = meta.header.provenance;
  const worst = p.exploitability.reduce((a, b) => (b.pctPot > a.pctPot ? b : a));
  const algorithm = p.algorithm.startsWith("Predictive CFR+") ? "PCFR+" : p.algorithm.split(" ")[0];
  const checkpoint = (p.notes ?? []).map((n) => /^Checkpoint: .* iteration (\d+),/.exec(n)).find(Boolean);
  const iterations = checkpoint ? `${checkpoint[1]} of ${p.iterations}` : `${p.iterations}`;
  const tail = `${meta.nodeCount} | ${iterations} | ${p.solveSeconds} | ${worst.seat} ${worst.pctPot.toFixed(3)}% (${worst.mbbPerHand.toFixed(2)} mbb) | ${Math.min(...p.exploitability.map((e) => e.pctPot)).toFixed(3)}% | ${(meta.fileBytes / 1024).toFixed(0)} KiB |`;
  return { meta, p, algorithm, tail };
}

// PLO packs: solved over the buckets of the PLO abstraction, listed apart (their exploitability is measured
// in the bucketed game).
const ploRows = [];
let ploBytes = 0;
for (const s of all.filter(isPlo)) {
  const { meta, algorithm, tail } = packCells(s);
  ploBytes += meta.fileBytes;
  ploRows.push(`| ${s.game} | ${s.stack} | ${meta.header.buckets?.count ?? "-"} | ${algorithm} | ${tail}`);
}
for (const s of packs) {
  const { meta, p, algorithm, tail } = packCells(s);
  bytes += meta.fileBytes;
  // The model version the solve recorded with its input hash ("Inputs: <hash> (model v3.3; ...").
  const version = (p.notes ?? []).map((n) => /^Inputs: [0-9a-f]+ \(model (v[\d.]+)/.exec(n)).find(Boolean);
  const model = `${(p.model ?? "").split(":")[0]}${version ? ` ${version[1]}` : ""}`;
  if (version) versions.set(version[1], (versions.get(version[1]) ?? 0) + 1);
  if (model.startsWith("realization-v3")) v3++;
  rows.push(`| ${s.game} | ${s.stack} | ${model} | ${algorithm} | ${tail}`);
}
const section = `<!-- solver-table:start -->
## Solver: every committed pack

Read from the pack headers by \`node scripts/solver-table.mjs\`; regenerate the packs with \`pnpm solve --all\`
(resumable: packs whose inputs are unchanged are skipped). Solved on ${cpus()[0]?.model ?? "unknown CPU"}
(${cpus().length} cores), Node ${process.version}: v3.3 packs one at a time on both cores at raised priority while
other work ran at low priority, older ones one pack per core while other work shared the two cores; times are
upper bounds. Exploitability is each seat's best-response gain against the published strategies, in
percent of the starting pot (1.5bb cash, 2.5bb nlmtt8) and mbb/hand. Model v3 (\`realization-v3\`, see
docs/solver-model.md): target 0.4% of the pot (0.05% for jam/fold), requirement 0.5% (0.1%). ${v3} of
${rows.length} packs are v3 (${[...versions]
  .sort()
  .map(([v, n]) => `${v}: ${n}`)
  .join(", ")}; v3.3 adds board-conditioned
duels in multiway all-in pots, and \`pnpm solve --all\` re-solves the older ones). Algorithm: DCFR, or predictive CFR+ (PCFR+) for the deep profiles; the 200bb cash
profiles also tremble every action while iterating (\`"trembleScope": "every"\`, docs/solver-model.md). Iterations "a of
b": the run went to b and the least exploitable check, at a, is published.

| game | stack | model | algorithm | decision nodes | iterations | solve s | worst seat | best seat | pack |
|---|---|---|---|---|---|---|---|---|---|
${rows.join("\n")}

All packs together: ${(bytes / 1024 / 1024).toFixed(1)} MiB.

### PLO packs

Solved over the 512 buckets of the PLO abstraction (docs/plo-abstraction.md) with \`pnpm solve --game G
--stack S\` (the bucket equity table first: \`node packages/solver/scripts/build-plo-bucket-equity.ts\`), one
at a time on both cores. Exploitability is each seat's best response in the bucketed game (the best
response, like the strategies, is one per bucket), in percent of the 1.5bb starting pot; requirement 0.5%.

${
  ploRows.length === 0
    ? "No PLO pack is committed yet."
    : `| game | stack | buckets | algorithm | decision nodes | iterations | solve s | worst seat | best seat | pack |
|---|---|---|---|---|---|---|---|---|---|
${ploRows.join("\n")}

All PLO packs together: ${(ploBytes / 1024 / 1024).toFixed(1)} MiB (limit 60 MB).`
}
<!-- solver-table:end -->`;
let text = "";
try {
  text = readFileSync(file, "utf8");
} catch {
  text = "# Benchmarks\n";
}
const start = text.indexOf("<!-- solver-table:start -->");
const end = text.indexOf("<!-- solver-table:end -->");
text =
  start >= 0 && end > start
    ? text.slice(0, start) + section + text.slice(end + "<!-- solver-table:end -->".length)
    : `${text.trimEnd()}\n\n${section}\n`;
writeFileSync(file, text);
console.log(
  `${rows.length} hold'em packs, ${(bytes / 1024 / 1024).toFixed(1)} MiB; ${ploRows.length} PLO packs, ${(ploBytes / 1024 / 1024).toFixed(1)} MiB -> BENCHMARKS.md`,
);

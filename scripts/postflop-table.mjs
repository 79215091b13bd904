// Writes the "What is solved" table of docs/postflop-packs.md (between the postflop-table markers) from the
// committed postflop packs' headers: boards solved of the pack's flops, exploitability, iterations and solve
// time per board, file size.
// Run: node scripts/postflop-table.mjs   (after `pnpm build`)
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  POSTFLOP_PACK_EXTENSION,
  PostflopPackFile,
  representativeFlops,
} from "../packages/postflop/dist/index.js";

const root = fileURLToPath(new URL("../", import.meta.url));
const doc = `${root}docs/postflop-packs.md`;
const flops = representativeFlops(30).length;
const packs = ["3bp-bb-btn-100bb", "3bp-bb-btn-100bb-flop33", "srp-btn-bb-100bb", "srp-btn-bb-100bb-flop33"];

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const range = (xs, digits) => {
  const lo = Math.min(...xs).toFixed(digits);
  const hi = Math.max(...xs).toFixed(digits);
  return lo === hi ? lo : `${lo} to ${hi}`;
};
const minutes = (s) => (s >= 3600 ? `${(s / 3600).toFixed(1)} h` : `${(s / 60).toFixed(1)} min`);

const opened = packs.map((id) => {
  const path = `${root}data/postflop/${id}${POSTFLOP_PACK_EXTENSION}`;
  return { id, path, pack: existsSync(path) ? PostflopPackFile.open(path) : null };
});

const rows = opened.map(({ id, path, pack }) => {
  if (!pack || pack.header.boards.length === 0) return `| \`${id}\` | 0 of ${flops} (not started) | | | | |`;
  const p = pack.header.boards.map((b) => b.provenance);
  const pct = p.map((x) => x.exploitabilityPct);
  const seconds = p.map((x) => x.seconds);
  const total = seconds.reduce((a, b) => a + b, 0);
  return (
    `| \`${id}\` | ${p.length} of ${flops} | ${range(pct, 3)}% of the pot (median ${median(pct).toFixed(3)}%) | ` +
    `${range(
      p.map((x) => x.iterations),
      0,
    )} | ${range(seconds, 0)} s (median ${median(seconds).toFixed(0)} s, ${minutes(total)} in all) | ` +
    `${(statSync(path).size / 2 ** 20).toFixed(1)} MiB |`
  );
});

// The threads the boards were solved on, from their provenance.
const threads = [
  ...new Set(opened.flatMap(({ pack }) => (pack ? pack.header.boards.map((b) => b.provenance.threads) : []))),
].sort((x, y) => x - y);
const threadsText = threads.map((t) => `${t} thread${t === 1 ? "" : "s"}`).join(" or ");

const table = [
  `| pack | boards | exploitability per board | iterations | time per board (${threadsText}) | file |`,
  "|---|---:|---|---|---|---:|",
  ...rows,
].join("\n");
const text = readFileSync(doc, "utf8");
const start = "<!-- postflop-table:start -->";
const end = "<!-- postflop-table:end -->";
const a = text.indexOf(start);
const b = text.indexOf(end);
if (a < 0 || b < a) throw new Error(`${doc}: the ${start} and ${end} markers are missing`);
writeFileSync(doc, `${text.slice(0, a + start.length)}\n${table}\n${text.slice(b)}`);
process.stdout.write(`${table}\n`);

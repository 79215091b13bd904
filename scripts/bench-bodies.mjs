#!/usr/bin/env node
/**
 * The store's cost of building node and range bodies on a miss, in this process (no HTTP): `store.json` over
 * every history (or every stored action) of a pack, with a new `minFreq` per query so that every query builds
 * its body, as the uncached scenarios of `scripts/bench.mjs` do. With `--compare DIR` (another checkout,
 * built), the two builds run in the same process in alternating rounds, so both see the same machine.
 * Also prints what a per-node cache of formatted bodies would have to hold for that pack: its node count,
 * the average body sizes, and the memory budget the loaded pack takes.
 *
 *   pnpm build && node scripts/bench-bodies.mjs [--game nl/v2] [--stack 100] [--rounds 12] [--compare DIR]
 *
 * Prints the median and the fastest round in microseconds per body (the first four rounds warm up).
 */

import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    game: { type: "string", default: "nl/v2" },
    stack: { type: "string", default: "100" },
    rounds: { type: "string", default: "12" },
    "per-round": { type: "string", default: "10000" },
    compare: { type: "string" },
  },
});
const game = values.game;
const stack = Number(values.stack);
const perRound = Number(values["per-round"]);
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 2 || !Number.isInteger(perRound) || perRound < 1) {
  console.error("--rounds must be an integer of at least 2 and --per-round a positive integer");
  process.exit(2);
}
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const roots = values.compare ? [resolve(values.compare), ROOT] : [ROOT];

async function subject(root) {
  const store = await import(pathToFileURL(join(root, "packages/store/dist/index.js")).href);
  const packsDir = join(root, "data/packs");
  const s = store.RangeStore.open({ packsDir, cacheBytes: 64 * 2 ** 20 });
  const pack = await store.readPackFile(store.packPath(packsDir, game, stack));
  const histories = pack.nodes.map((n) => n.history);
  const spots = pack.nodes.flatMap((n) => n.actions.map((a) => `${n.history}_${a.token}`));
  let k = 0;
  const minFreq = () => (k + 1) * 1e-9;
  const run = {
    node: () =>
      s.json({ kind: "node", game, stack, history: histories[k++ % histories.length], minFreq: minFreq() }),
    range: () => s.json({ kind: "range", game, stack, spot: spots[k++ % spots.length], minFreq: minFreq() }),
  };
  return { root, store: s, histories, run, times: { node: [], range: [] } };
}

const subjects = [];
for (const root of roots) subjects.push(await subject(root));

// What a per-node cache of formatted bodies would hold: one body per node, with and without minFreq.
const first = subjects.at(-1);
let plain = 0;
let filtered = 0;
for (const history of first.histories) {
  plain += first.store.json({ kind: "node", game, stack, history }).bytes.length;
  filtered += first.store.json({ kind: "node", game, stack, history, minFreq: 1e-9 }).bytes.length;
}
const n = first.histories.length;
console.log(
  `${game} ${stack}bb: ${n} nodes; average node body ${(plain / n).toFixed(0)} bytes (${(plain / 2 ** 20).toFixed(1)} MiB for all), ${(filtered / n).toFixed(0)} bytes with a minFreq; the loaded pack takes ${(first.store.cacheStats().packBytes / 2 ** 20).toFixed(1)} MiB of the 64 MiB budget`,
);

// The first four rounds warm up; with fewer than five rounds, every round but the last does.
const warmup = Math.min(4, rounds - 1);
for (const kind of ["node", "range"]) {
  for (let round = 0; round < rounds; round++) {
    for (const sub of round % 2 ? [...subjects].reverse() : subjects) {
      const t0 = performance.now();
      for (let i = 0; i < perRound; i++) sub.run[kind]();
      sub.times[kind].push(((performance.now() - t0) * 1000) / perRound);
    }
  }
  for (const sub of subjects) {
    const t = sub.times[kind].slice(warmup).sort((a, b) => a - b);
    console.log(
      `${kind} bodies, ${sub.root}: median ${t[Math.floor(t.length / 2)].toFixed(1)} us/body, fastest round ${t[0].toFixed(1)}`,
    );
  }
}
process.exit(0);

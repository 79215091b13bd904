#!/usr/bin/env node
/**
 * Latency of full, uncached PLO nodes over HTTP (issue "Pot-limit Omaha preflop", item 6): the API on an
 * ephemeral port in this process (store response cache off, so every request decodes the pack node and
 * expands its buckets to the 16,432 classes), one client asking for nodes spread over a committed PLO pack's
 * tree, one request at a time, with a key. Prints the body sizes and the latency percentiles.
 *
 *   pnpm build && node scripts/bench-plo-node.mjs [--game plo] [--stack 100] [--requests 600] [--min-freq F]
 *
 * Without --min-freq every node is served whole (every class with a non-zero weight, and its EV).
 */

import { cpus, loadavg } from "node:os";
import { parseArgs } from "node:util";
import { createApp } from "../apps/api/dist/index.js";
import { AccessStore } from "../packages/access/dist/index.js";
import { RangeStore } from "../packages/store/dist/index.js";

const { values } = parseArgs({
  options: {
    game: { type: "string", default: "plo" },
    stack: { type: "string", default: "100" },
    requests: { type: "string", default: "600" },
    "min-freq": { type: "string" },
  },
});
const game = values.game;
const stack = Number(values.stack);
const requests = Number(values.requests);
const packsDir = new URL("../data/packs/", import.meta.url).pathname;

const store = RangeStore.open({ packsDir, cacheBytes: 0 });
if (!store.liveStacks(game).includes(stack)) {
  console.error(
    `bench-plo-node: no ${game} ${stack}bb pack in data/packs (pnpm solve --game ${game} --stack ${stack})`,
  );
  process.exit(1);
}
const access = await AccessStore.open(":memory:");
const { key } = await access.createKey({ name: "bench", plan: "bench", dailyQuota: null });
const app = createApp({ store, access, logger: () => {} });
const server = app.listen(0, "127.0.0.1");
await new Promise((resolve) => server.once("listening", resolve));
const base = `http://127.0.0.1:${server.address().port}/api/v1/ranges/${game}`;
const headers = { authorization: `Bearer ${key}` };

const histories = store.spots(game, stack).spots.map((n) => n.history);
const minFreq = values["min-freq"] === undefined ? "" : `&minFreq=${values["min-freq"]}`;
const url = (h) => `${base}/node?stack=${stack}&history=${encodeURIComponent(h)}${minFreq}`;

// Warm-up: the pack file is read and its index parsed once.
await (await fetch(url(histories[0]), { headers })).text();

const times = [];
const sizes = [];
const load = loadavg()[0];
for (let i = 0; i < requests; i++) {
  // A stride prime to the node count spreads the requests over the whole tree (shallow and deep nodes).
  const h = histories[(i * 7919) % histories.length];
  const t0 = performance.now();
  const res = await fetch(url(h), { headers });
  const body = await res.text();
  times.push(performance.now() - t0);
  if (res.status !== 200) throw new Error(`${h}: HTTP ${res.status} ${body.slice(0, 200)}`);
  sizes.push(body.length);
}
server.close();
server.closeAllConnections();
await access.close();

const q = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const kb = (x) => `${(x / 1024).toFixed(0)} KiB`;
console.log(
  `${game} ${stack}bb: ${requests} uncached /node requests over ${histories.length} nodes${minFreq ? ` (minFreq ${values["min-freq"]})` : " (whole nodes)"}, one at a time`,
);
console.log(`body: median ${kb(q(sizes, 0.5))}, largest ${kb(Math.max(...sizes))}`);
console.log(
  `latency ms: p50 ${q(times, 0.5).toFixed(1)}, p90 ${q(times, 0.9).toFixed(1)}, p99 ${q(times, 0.99).toFixed(1)}, max ${Math.max(...times).toFixed(1)}`,
);
console.log(
  `machine: ${cpus()[0]?.model} x${cpus().length}, Node ${process.version}, load average at start ${load.toFixed(2)}`,
);

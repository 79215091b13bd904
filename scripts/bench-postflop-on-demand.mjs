#!/usr/bin/env node
/**
 * Turn and river answers solved on demand (issue "Heads-up postflop", item 4): how long the first answer of a
 * turn node takes (the turn subgame solved from the flop solve's ranges), the river after it, and a kept
 * answer, over HTTP with a key (the API on an ephemeral port in this process, its subgame worker on
 * `--threads`). For every solved board of a pack, three flop lines that end the flop (check-check, IP's bet
 * called, OOP's bet called) and `--cards` turn cards, then one river after the turn checks through.
 *
 *   pnpm build && node scripts/bench-postflop-on-demand.mjs [--pack 3bp-bb-btn-100bb] [--boards N] [--cards 2]
 *     [--threads 2]
 */

import { cpus, loadavg } from "node:os";
import { parseArgs } from "node:util";
import { createApp } from "../apps/api/dist/index.js";
import { AccessStore } from "../packages/access/dist/index.js";
import { PostflopPacks } from "../packages/postflop/dist/index.js";
import { RangeStore } from "../packages/store/dist/index.js";

const { values } = parseArgs({
  options: {
    pack: { type: "string", default: "3bp-bb-btn-100bb" },
    boards: { type: "string" },
    cards: { type: "string", default: "2" },
    threads: { type: "string", default: "2" },
  },
});
const dir = new URL("../data/postflop/", import.meta.url).pathname;
const postflop = PostflopPacks.open({ dir, subgames: { threads: Number(values.threads) } });
const pack = postflop.get(values.pack);
const access = await AccessStore.open(":memory:");
const { key } = await access.createKey({ name: "bench", plan: "bench", dailyQuota: null });
const app = createApp({
  store: RangeStore.open({ packsDir: new URL("../data/packs/", import.meta.url).pathname }),
  access,
  logger: () => {},
  postflop,
});
const server = app.listen(0, "127.0.0.1");
await new Promise((resolve) => server.once("listening", resolve));
const base = `http://127.0.0.1:${server.address().port}/api/v1/postflop/${values.pack}`;

async function node(board, path) {
  const t = performance.now();
  const res = await fetch(`${base}/node?board=${board}&path=${encodeURIComponent(path.join(","))}`, {
    headers: { Authorization: `Bearer ${key}` },
  });
  const body = await res.json();
  const ms = performance.now() - t;
  if (res.status !== 200)
    throw new Error(`${board} ${path.join(",")}: ${res.status} ${JSON.stringify(body)}`);
  return { ms, solve: body.context.solve };
}

const DECK = ["2c", "7d", "Ah", "Ts", "5c", "Jd", "3h", "9c", "Kd", "8s"];
const boards = pack.header.boards
  .map((b) => b.board)
  .slice(0, values.boards ? Number(values.boards) : undefined);
const lines = [
  ["check", "check"],
  ["check", "bet", "call"],
  ["bet", "call"],
];
const turn = [];
const river = [];
const kept = [];
for (const board of boards) {
  const cards = DECK.filter((c) => !board.toLowerCase().includes(c.toLowerCase())).slice(
    0,
    Number(values.cards) + 1,
  );
  for (const line of lines) {
    for (const card of cards.slice(0, -1)) {
      const first = await node(board, [...line, card]);
      turn.push({ board, line: line.join(","), card, ...first });
      kept.push((await node(board, [...line, card])).ms);
      const r = await node(board, [...line, card, "check", "check", cards.at(-1)]);
      river.push({ board, ...r });
    }
  }
}

const pct = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const summary = (rows) => ({
  count: rows.length,
  msP50: Math.round(
    pct(
      rows.map((r) => r.ms),
      0.5,
    ),
  ),
  msP90: Math.round(
    pct(
      rows.map((r) => r.ms),
      0.9,
    ),
  ),
  msMax: Math.round(Math.max(...rows.map((r) => r.ms))),
  iterationsP50: pct(
    rows.map((r) => r.solve.iterations),
    0.5,
  ),
  iterationsMax: Math.max(...rows.map((r) => r.solve.iterations)),
  exploitabilityPctMax: Math.max(...rows.map((r) => r.solve.exploitabilityPct)),
  reachedTarget: rows.filter((r) => r.solve.reachedTarget).length,
});
const slowest = [...turn].sort((a, b) => b.ms - a.ms)[0];
console.log(
  JSON.stringify(
    {
      pack: values.pack,
      boards: boards.length,
      threads: Number(values.threads),
      machine: `${cpus().length} x ${cpus()[0]?.model ?? "cpu"}, load ${loadavg()
        .map((x) => x.toFixed(2))
        .join(" ")}`,
      turnFirstAnswer: summary(turn),
      riverFirstAnswer: summary(river),
      keptAnswerMs: {
        p50: Math.round(pct(kept, 0.5) * 10) / 10,
        max: Math.round(Math.max(...kept) * 10) / 10,
      },
      slowestTurn: {
        board: slowest.board,
        line: slowest.line,
        card: slowest.card,
        ms: Math.round(slowest.ms),
      },
    },
    null,
    2,
  ),
);
server.close();
server.closeAllConnections();
postflop.close();
await access.close();

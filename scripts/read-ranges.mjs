// A strong player's first read of a pack, from the served JSON: RFI per seat, the BB's defence against a
// BTN open, the SB first in, and AA/KK at any extra histories given. Shares are of all 1,326 combos.
// Run (after `pnpm build`): node scripts/read-ranges.mjs nl/v2 100 [history ...]
import { GAMES, HOLDEM_CLASS_COMBOS, HOLDEM_CLASSES } from "../packages/core/dist/index.js";
import { RangeStore } from "../packages/store/dist/index.js";

const [game, stackArg, ...extra] = process.argv.slice(2);
if (!game || !stackArg || !GAMES[game]) {
  console.error("usage: node scripts/read-ranges.mjs GAME STACK [history ...]");
  process.exit(1);
}
const stack = Number(stackArg);
const seats = GAMES[game].seats;
const store = RangeStore.open({ packsDir: new URL("../data/packs/", import.meta.url).pathname });
const node = async (history) =>
  JSON.parse((await store.jsonAsync({ kind: "node", game, stack, history, full: true })).bytes.toString());
const share = (weights) =>
  HOLDEM_CLASSES.reduce((sum, c, i) => sum + (weights[c] ?? 0) * HOLDEM_CLASS_COMBOS[i], 0) / 1326;
const pct = (x) => (100 * x).toFixed(1);
const actionShares = (n) => n.actions.map((a) => `${a.action} ${pct(share(a.weights))}`).join(", ");

// The first-in line: each seat's node after everyone before it folded.
const firstIn = (i) => seats.slice(0, i + 1).join("_Fold_");
const rfi = [];
for (let i = 0; i < seats.length - 1; i++) {
  const n = await node(firstIn(i));
  const fold = n.actions.find((a) => a.kind === "fold");
  rfi.push(`${n.actor} ${pct(1 - share(fold.weights))}`);
}
console.log(`${game} ${stack}bb`);
console.log(`RFI by seat: ${rfi.join(" / ")}`);
const sbNode = await node(firstIn(seats.indexOf("SB")));
console.log(`SB first in: ${actionShares(sbNode)}`);
const btn = await node(firstIn(seats.indexOf("BTN")));
const open = btn.actions.find((a) => a.kind === "raise") ?? btn.actions.find((a) => a.kind === "allin");
const bbHistory = `${firstIn(seats.indexOf("BTN"))}_${open.action}_SB_Fold_BB`;
const bb = await node(bbHistory);
console.log(`BB vs BTN ${open.action} (to ${open.sizeBb}bb): ${actionShares(bb)} (reach ${bb.reach})`);
for (const h of extra) {
  const n = await node(h);
  const show = (c) => n.actions.map((a) => `${a.action} ${pct(a.weights[c] ?? 0)}%`).join(", ");
  console.log(`${h} (${n.actor}, reach ${n.reach}): AA ${show("AA")} | KK ${show("KK")}`);
}

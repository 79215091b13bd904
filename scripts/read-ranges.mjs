// A strong player's first read of a pack, from the served JSON: RFI per seat, the BB's defence against a
// BTN open, the SB first in, and AA/KK at any extra histories given. Shares are of all 1,326 combos.
// With --grids: the 13x13 first-in grids of UTG, CO, BTN and the SB (percent that enters the pot), and the BB's
// calls and 3-bets of pairs and suited connectors against the BTN open.
// Run (after `pnpm build`): node scripts/read-ranges.mjs nl/v2 100 [--grids] [history ...]
// --packs-dir=DIR reads packs from DIR (DIR/nl-v2/100.pack) instead of data/packs.
import { GAMES, HOLDEM_CLASS_COMBOS, HOLDEM_CLASSES } from "../packages/core/dist/index.js";
import { RangeStore } from "../packages/store/dist/index.js";

const args = process.argv.slice(2);
const grids = args.includes("--grids");
const packsDir = args.find((a) => a.startsWith("--packs-dir="))?.slice("--packs-dir=".length);
const [game, stackArg, ...extra] = args.filter((a) => !a.startsWith("--"));
if (!game || !stackArg || !GAMES[game]) {
  console.error("usage: node scripts/read-ranges.mjs GAME STACK [history ...]");
  process.exit(1);
}
const stack = Number(stackArg);
const seats = GAMES[game].seats;
const store = RangeStore.open({
  packsDir: packsDir ?? new URL("../data/packs/", import.meta.url).pathname,
});
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

if (grids) {
  const ranks = "AKQJT98765432";
  // Class at row i, column j of the usual grid: pairs on the diagonal, suited above, offsuit below.
  const classAt = (i, j) =>
    i === j ? ranks[i] + ranks[i] : i < j ? `${ranks[i]}${ranks[j]}s` : `${ranks[j]}${ranks[i]}o`;
  const grid = (title, value) => {
    console.log(`\n${title}`);
    console.log(`      ${[...ranks].map((r) => r.padStart(4)).join("")}`);
    for (let i = 0; i < 13; i++) {
      const row = [];
      for (let j = 0; j < 13; j++) row.push(String(Math.round(100 * value(classAt(i, j)))).padStart(4));
      console.log(`  ${ranks[i]}   ${row.join("")}`);
    }
  };
  for (const seat of ["UTG", "CO", "BTN", "SB"].filter((s) => seats.includes(s))) {
    const n = await node(firstIn(seats.indexOf(seat)));
    const fold = n.actions.find((a) => a.kind === "fold");
    grid(`${seat} first in: % that enters the pot`, (c) => 1 - (fold.weights[c] ?? 0));
  }
  const kinds = (c) =>
    bb.actions.map((a) => `${a.action} ${Math.round(100 * (a.weights[c] ?? 0))}`).join("/");
  const pairs = [...ranks].map((r) => r + r);
  const connectors = [...ranks].slice(0, 12).map((r, i) => `${r}${ranks[i + 1]}s`);
  console.log(`\nBB vs BTN open, pairs: ${pairs.map((c) => `${c} ${kinds(c)}`).join("; ")}`);
  console.log(`BB vs BTN open, suited connectors: ${connectors.map((c) => `${c} ${kinds(c)}`).join("; ")}`);
}

// A one-stack spot of a committed tree config with the grounded model v4 in place of the contest, for
// `pnpm solve --spot` (a prototype pack to read beside the served one; not a served pack).
// Run: node scripts/v4-spot.mjs nl/v2 100 data/realization/grounded-params.json /tmp/nl-v2-100-v4.json
//      node packages/solver/dist/cli.js --spot /tmp/nl-v2-100-v4.json --out /tmp/v4/nl-v2/100.pack
//      node scripts/read-ranges.mjs nl/v2 100 --grids --packs-dir=/tmp/v4
import { readFileSync, writeFileSync } from "node:fs";

const [game, stackArg, paramsFile, out] = process.argv.slice(2);
const stack = Number(stackArg);
if (!game || !Number.isFinite(stack) || !paramsFile || !out) {
  console.error("usage: node scripts/v4-spot.mjs GAME STACK PARAMS.json OUT.json");
  process.exit(1);
}
const config = JSON.parse(
  readFileSync(new URL(`../data/trees/${game.replace("/", "-")}.json`, import.meta.url), "utf8"),
);
const params = JSON.parse(readFileSync(paramsFile, "utf8"));
const profile = config.profiles.find((p) => p.stacks.includes(stack));
if (!profile) {
  console.error(`${game} has no profile for ${stack}bb`);
  process.exit(1);
}
config.profiles = [{ ...profile, stacks: [stack] }];
// The lines solved with this pack's own ranges take their own class effects (model.grounded.lines).
const lines = (params.lines ?? [])
  .filter((l) => l.game === game && l.stack === stack)
  .map(({ game: _g, stack: _s, ...line }) => line);
config.model = {
  ...config.model,
  name: params.name,
  source: params.source,
  grounded: { theta: params.theta, gamma: params.gamma, classEffects: params.classEffects, lines },
};
writeFileSync(out, `${JSON.stringify(config)}\n`);
console.log(
  `${out}: ${game} ${stack}bb with model ${params.name}; lines with their own effects: ${lines.map((l) => l.id).join(", ") || "none"}`,
);

// Rewrites every pack under data/packs with the current writer (e.g. after a format change). The content is
// decoded and re-encoded as is: strategies, EVs and provenance are unchanged.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { readPackFile, writePack } from "../packages/store/dist/index.js";

const root = new URL("../data/packs/", import.meta.url).pathname;
for (const dir of readdirSync(root)) {
  for (const file of readdirSync(join(root, dir)).filter((f) => f.endsWith(".pack"))) {
    const path = join(root, dir, file);
    await writePack(path, await readPackFile(path));
    console.log(`repacked ${dir}/${file}`);
  }
}

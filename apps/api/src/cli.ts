/**
 * `ranges`: administration commands.
 *   ranges keys create --name N [--plan P] [--quota Q|unmetered]
 *   ranges keys list
 *   ranges keys revoke <id>
 *   ranges import monker <folder> --game G --stack S [--out data/packs]
 * ACCESS_DB selects the key database (default <repo>/var/access.sqlite).
 */

import { runCli } from "./commands.js";

process.exitCode = await runCli(process.argv.slice(2));

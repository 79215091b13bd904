/** Entry of a solver worker thread (see parallel.ts): solves its share of the tree on command. */

import { workerData } from "node:worker_threads";
import { runCfrWorker } from "./parallel.js";

runCfrWorker(workerData.init);

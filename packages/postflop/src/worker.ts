/** Entry of a postflop solver worker thread (see parallel.ts): runs units on command. */

import { type MessagePort, workerData } from "node:worker_threads";
import { runWorker } from "./parallel.js";

const port = workerData.port as MessagePort;
runWorker(workerData.init, (message) => port.postMessage(message));

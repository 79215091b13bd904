/** Entry of the on-demand subgame worker thread (see subgame.ts): solves one subgame per message, in order. */

import { parentPort } from "node:worker_threads";
import { solveSubgame } from "./subgame.js";

parentPort!.on("message", (message: { id: number; config: never; options: never }) => {
  try {
    const result = solveSubgame(message.config, message.options);
    const buffers = [
      ...result.data.hands,
      ...result.data.weights,
      ...result.data.nodes.flatMap((n) => [...n.strategy, ...n.reach, ...n.ev, ...n.equity, ...n.actionEv]),
    ].map((v) => v.buffer as ArrayBuffer);
    parentPort!.postMessage({ id: message.id, result }, [...new Set(buffers)]);
  } catch (error) {
    parentPort!.postMessage({ id: message.id, error: (error as Error).message });
  }
});

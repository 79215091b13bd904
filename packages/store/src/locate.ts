/**
 * The tree walk that turns a path the grammar accepted into a node of a loaded pack, or into a 404 that names
 * the valid prefix and the actions available there.
 */

import { BettingOrder, GAMES, type GameId, type PathStep, RangesError } from "@ranges/core";
import type { StoredAction, StoredNode } from "./pack-index.js";
import type { LoadedPack } from "./views.js";

const where = (pack: LoadedPack): string => `${pack.game} at ${pack.stack}bb`;

function notAvailable(pack: LoadedPack, node: StoredNode, token: string): RangesError {
  const tokens = node.actions.map((a) => a.token);
  return new RangesError(
    "action_not_available",
    `"${token}" is not an action of ${node.actor} at "${node.history}" (${where(pack)}). Available actions: ${tokens.join(", ")}. The valid prefix is "${node.history}": append one of the available actions.`,
    { validPrefix: node.history, validActions: tokens },
  );
}

/**
 * The node reached by `steps` with `actor` to act. Walks from the root so that a miss names the deepest
 * node the pack holds: 404 `action_not_available` when a token is not an action there, 404
 * `node_not_found` when the tree does not continue after a valid action.
 */
export function locateNode(
  pack: LoadedPack,
  steps: readonly PathStep[],
  actor: string,
  /** The steps and actor as one path (`parsePath` keeps each part as written), when the caller has it. */
  joined: string = [...steps.flatMap((s) => [s.seat, s.action.token]), actor].join("_"),
): StoredNode {
  const direct = pack.byHistory.get(joined);
  if (direct) return direct;
  const rootSeat = steps[0]?.seat ?? actor;
  let node = pack.byHistory.get(rootSeat);
  if (!node) {
    throw new RangesError("node_not_found", `The ${where(pack)} pack holds no root node "${rootSeat}".`, {
      validPrefix: "",
      validActions: [],
    });
  }
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    const action = node.actions.find((a) => a.token === step.action.token);
    if (!action) throw notAvailable(pack, node, step.action.token);
    const nextSeat = steps[i + 1]?.seat ?? actor;
    const next = pack.byHistory.get(`${node.history}_${action.token}_${nextSeat}`);
    if (!next) {
      throw new RangesError(
        "node_not_found",
        `The ${where(pack)} tree has no decision for ${nextSeat} after "${node.history}_${action.token}": the tree does not continue this line. The valid prefix is "${node.history}" with actions ${node.actions.map((a) => a.token).join(", ")}.`,
        { validPrefix: node.history, validActions: node.actions.map((a) => a.token) },
      );
    }
    node = next;
  }
  return node;
}

/** The action of `node` named by `token`, else 404 `action_not_available`. */
export function locateAction(pack: LoadedPack, node: StoredNode, token: string): StoredAction {
  const action = node.actions.find((a) => a.token === token);
  if (!action) throw notAvailable(pack, node, token);
  return action;
}

/** The seat that would act after `steps`, for messages that suggest a history (null when closed). */
export function nextSeatAfter(game: GameId, steps: readonly PathStep[]): string | null {
  const order = new BettingOrder(GAMES[game].seats);
  for (const s of steps)
    order.apply(s.seat, s.action.kind, s.action.kind === "raise" || s.action.kind === "allin");
  return order.nextToAct();
}

/** Authorization and metering of a call: the access store's decision, its headers, and who the caller is. */

import type { AccessStore } from "@ranges/access";
import type { Ctx } from "../services.js";
import { takePredecided } from "./fast-get.js";

export interface Auth {
  /** Authorizes and meters the call; its headers go on the response whatever the outcome. */
  authorize(ctx: Ctx, keyless: boolean, operation: string): Promise<void>;
  /**
   * The caller's own records (requests, solves): a valid key is needed; `free` calls are not counted on its
   * meter. Returns the key id and plan.
   */
  keyHolder(ctx: Ctx, operation: string, free?: boolean): Promise<{ keyId: string; plan: string }>;
}

export function createAuth(access: AccessStore): Auth {
  const decide = async (ctx: Ctx, keyless: boolean, operation: string, free?: boolean) => {
    // A call the cached GETs' fast path already decided (and metered) is not decided again.
    const decision =
      takePredecided(ctx.req) ??
      (await access.authorize({
        authorization: ctx.get("authorization"),
        ip: ctx.ip,
        keyless,
        operation,
        ...(free === undefined ? {} : { free }),
      }));
    for (const name in decision.headers) ctx.set(name, decision.headers[name]!);
    if (!decision.ok) throw decision.error;
    ctx.state.via = decision.via;
    ctx.state.caller = decision.keyId ? `key:${decision.keyId}` : `ip:${ctx.ip}`;
    return decision;
  };
  return {
    async authorize(ctx, keyless, operation) {
      await decide(ctx, keyless, operation);
    },
    async keyHolder(ctx, operation, free = true) {
      const decision = await decide(ctx, false, operation, free);
      return { keyId: decision.keyId!, plan: decision.plan ?? "standard" };
    },
  };
}

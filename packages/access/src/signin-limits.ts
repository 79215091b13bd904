/**
 * The failed sign-in limits of `AccountStore.signIn` (the rule is in accounts.ts's header). Counters are
 * daily rows of the `usage` table: `signin-pair:<email>|<address>`, `signin-ip:<address>` and
 * `signin:<email>`; the addresses an account was used from are `signin-known:<email>|<address>` rows, one
 * per day of use. An attempt claims its counters before the password is verified, one atomic conditional
 * upsert each, so parallel attempts cannot pass a limit; a right password gives them back.
 */

import { RangesError } from "@ranges/core";
import { type Kysely, sql } from "kysely";
import { secondsToUtcMidnight, utcDay } from "./clock.js";
import type { AccountTables } from "./db/database.js";
import { claimUsage } from "./db/usage.js";

/** How long an address an account signed in from stays known to it (days). */
const KNOWN_ADDRESS_DAYS = 30;

export interface SignInLimitValues {
  /** Failures per account and address. */
  readonly perPair: number;
  /** Failures per address, across accounts. */
  readonly perAddress: number;
  /** Failures per account from addresses it has not used in KNOWN_ADDRESS_DAYS days. */
  readonly perAccount: number;
}

/** A claimed attempt: `succeeded` gives its counts back and remembers the address as the owner's. */
export interface SignInAttempt {
  succeeded(): Promise<void>;
}

export class SignInLimits {
  constructor(
    private readonly db: Kysely<AccountTables>,
    private readonly limits: SignInLimitValues,
  ) {}

  /**
   * Claims one attempt on `email` from `address` (IPv6 as a /64; null when unknown), or throws 429 naming
   * the limit that refused it (nothing stays counted then).
   */
  async claim(email: string, address: string | null, now: Date): Promise<SignInAttempt> {
    const day = utcDay(now);
    const claimed: string[] = [];
    const take = async (subject: string, limit: number, refusal: () => RangesError): Promise<void> => {
      if ((await claimUsage(this.db, subject, day, limit)) !== undefined) {
        claimed.push(subject);
        return;
      }
      for (const s of claimed) await this.release(s, day);
      throw refusal();
    };
    const { perPair, perAddress, perAccount } = this.limits;
    await take(`signin-pair:${email}|${address ?? "-"}`, perPair, () =>
      limited(now, perPair, "Too many failed sign-ins to this account from your network address today"),
    );
    if (address !== null) {
      await take(`signin-ip:${address}`, perAddress, () =>
        limited(now, perAddress, "Too many failed sign-ins from this network address today"),
      );
    }
    if (address === null || !(await this.known(email, address, now))) {
      await take(`signin:${email}`, perAccount, () =>
        limited(
          now,
          perAccount,
          "Too many failed sign-ins to this account today from networks it has not signed in from lately",
          `sign in from a network you signed in from in the last ${KNOWN_ADDRESS_DAYS} days`,
        ),
      );
    }
    return {
      succeeded: async () => {
        for (const s of claimed) await this.release(s, day);
        if (address !== null) await this.remember(email, address, now.toISOString());
      },
    };
  }

  /** Records that the owner of `email` used `address` (at the ISO time `at`). */
  async remember(email: string, address: string, at: string): Promise<void> {
    await this.db
      .insertInto("usage")
      .values({ subject: `signin-known:${email}|${address}`, day: at.slice(0, 10), count: 1 })
      .onConflict((oc) => oc.columns(["subject", "day"]).doNothing())
      .execute();
  }

  /** Whether the owner of `email` signed up or in from `address` in the last KNOWN_ADDRESS_DAYS days. */
  private async known(email: string, address: string, now: Date): Promise<boolean> {
    const since = utcDay(new Date(now.getTime() - KNOWN_ADDRESS_DAYS * 86_400_000));
    const row = await this.db
      .selectFrom("usage")
      .select("day")
      .where("subject", "=", `signin-known:${email}|${address}`)
      .where("day", ">=", since)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Gives back one claimed on a subject's day. */
  private async release(subject: string, day: string): Promise<void> {
    await this.db
      .updateTable("usage")
      .set({ count: sql`count - 1` })
      .where("subject", "=", subject)
      .where("day", "=", day)
      .where("count", ">", 0)
      .execute();
  }
}

function limited(now: Date, limit: number, what: string, alternative?: string): RangesError {
  const reset = secondsToUtcMidnight(now);
  const retry = `try again after 00:00 UTC (in ${reset} s)`;
  return new RangesError("rate_limited", `${what}; ${alternative ? `${alternative}, or ${retry}` : retry}.`, {
    limit,
    meter: "signin",
    retryAfterSeconds: reset,
    resetsAt: new Date(now.getTime() + reset * 1000).toISOString(),
  });
}

/**
 * The chips each player of a partypoker "Game Table" hand has put in, counted from the reader lines its
 * translation writes, to check the all-ins: the client writes an amount it worked out (the rest of a stack)
 * rounded down to the chip, so a tournament all-in may read a chip short of the stack. The summary then
 * counts the whole stack (`balance 0, lost 11389667`):
 *
 *     Seat 5: Player5 (11389667)
 *     Player5 posts ante (87500)
 *     Player5 raises 11302166 to 11302166
 *     Player5 is all-In.
 */

import { parseAmount } from "../amounts.js";

const MONEY = /^(.+?): (posts (?:small blind|big blind|the ante)|calls|bets|raises to) (\S+)$/;

export class ChipCount {
  private readonly put = new Map<string, number>();
  private live = new Map<string, number>();
  private readonly stacks = new Map<string, number>();

  seat(name: string, stack: number): void {
    this.stacks.set(name, stack);
  }

  /** A new street: nobody has bet on it yet. */
  street(): void {
    this.live = new Map();
  }

  /** Counts a reader line (`Name: calls 40`, `Name: raises to 120`); lines that put in nothing are skipped. */
  count(line: string): void {
    const m = MONEY.exec(line);
    if (!m) return;
    const [name, what, amount] = [m[1]!, m[2]!, parseAmount(m[3]!)];
    const live = this.live.get(name) ?? 0;
    const added = what === "raises to" ? amount - live : amount;
    this.put.set(name, (this.put.get(name) ?? 0) + added);
    if (what !== "posts the ante") this.live.set(name, live + added);
  }

  /** What a player's lines have put in so far. */
  putIn(name: string): number {
    return this.put.get(name) ?? 0;
  }

  /** What a seated player has not put in yet; NaN for a player without a seat. */
  left(name: string): number {
    return (this.stacks.get(name) ?? Number.NaN) - (this.put.get(name) ?? 0);
  }

  /**
   * A player's last line with money, `short` chips more (`Name: raises to 11302167`), counted; null when the
   * line puts in nothing.
   */
  topUp(line: string, short: number): string | null {
    const m = MONEY.exec(line);
    if (!m) return null;
    const amount = parseAmount(m[3]!) + short;
    this.put.set(m[1]!, (this.put.get(m[1]!) ?? 0) + short);
    if (m[2] !== "posts the ante") this.live.set(m[1]!, (this.live.get(m[1]!) ?? 0) + short);
    return `${m[1]}: ${m[2]} ${amount}`;
  }
}

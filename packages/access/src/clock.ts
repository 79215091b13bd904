/** UTC-day arithmetic for the daily meters: every allowance resets at 00:00 UTC. */

const DAY_MS = 86_400_000;

// The last day asked for: every request asks, and almost always for the same day.
let memoStart = 0;
let memoText = "";

/** `YYYY-MM-DD` of the UTC day containing `now`. */
export function utcDay(now: Date): string {
  const start = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  if (start !== memoStart || memoText === "") {
    memoStart = start;
    memoText = new Date(start).toISOString().slice(0, 10);
  }
  return memoText;
}

/** Whole seconds from `now` to the next UTC midnight, at least 1. (JS time has no leap seconds.) */
export function secondsToUtcMidnight(now: Date): number {
  const t = now.getTime();
  const next = (Math.floor(t / DAY_MS) + 1) * DAY_MS;
  return Math.max(1, Math.ceil((next - t) / 1000));
}

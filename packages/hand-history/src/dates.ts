/**
 * Hand times. PokerStars writes the local time with a zone abbreviation (`2014/01/06 7:21:05 ET`, or
 * `2019/12/01 20:00:00 CET [2019/12/01 14:00:00 ET]`); GGPoker writes the time without a zone.
 *
 * `ET`, `CT`, `MT`, `PT` and `AKT`/`HT` are US zones that follow the US daylight-saving rules (from 2007:
 * second Sunday of March to first Sunday of November, 02:00 local; before: first Sunday of April to last
 * Sunday of October). `CET`, `WET` and `EET` follow the European Union's rules (last Sunday of March to last
 * Sunday of October, 01:00 UTC): PokerStars writes `CET` all year, also in summer when the clocks in Paris
 * show CEST (`2021/07/10 21:14:05 CET [2021/07/10 15:14:05 ET]` is 19:14:05 UTC). Other abbreviations
 * (`CEST`, `BST`, `EST`, ...) have a fixed offset. In the hour repeated when daylight saving ends, a local
 * time is read as daylight time (the first of the two).
 */

/** Fixed offsets, in minutes east of UTC. */
const FIXED: Record<string, number> = {
  UTC: 0,
  GMT: 0,
  WEST: 60,
  BST: 60,
  CEST: 120,
  EEST: 180,
  MSK: 180,
  EST: -300,
  EDT: -240,
  CST: -360,
  CDT: -300,
  MST: -420,
  MDT: -360,
  PST: -480,
  PDT: -420,
  AKST: -540,
  AKDT: -480,
  HST: -600,
  BRT: -180,
  ART: -180,
  IST: 330,
  JST: 540,
  AWST: 480,
  ACST: 570,
  ACDT: 630,
  AEST: 600,
  AEDT: 660,
  NZST: 720,
  NZDT: 780,
};

/** US zones with daylight saving: standard offset in minutes. */
const US: Record<string, number> = { ET: -300, CT: -360, MT: -420, PT: -480, AKT: -540 };

/** European zones with the EU's daylight saving (one hour more in summer): standard offset in minutes. */
const EU: Record<string, number> = { WET: 0, CET: 60, EET: 120 };

/** Whether a zone abbreviation is one this module converts. */
export const knownZone = (zone: string): boolean => zone in FIXED || zone in US || zone in EU;

/** The EU's summer time of a year in UTC milliseconds: [start, end), 01:00 UTC on the last Sundays of March and October. */
function euDaylight(year: number): [number, number] {
  return [Date.UTC(year, 2, sunday(year, 3, 0), 1), Date.UTC(year, 9, sunday(year, 10, 0), 1)];
}

/** Day of month of the n-th (1-based; 0 = last) Sunday of a month (1-based month), UTC calendar. */
function sunday(year: number, month: number, n: number): number {
  if (n === 0) {
    const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
    const dow = new Date(Date.UTC(year, month - 1, last)).getUTCDay();
    return last - dow;
  }
  const dow = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
  return 1 + ((7 - dow) % 7) + (n - 1) * 7;
}

const daylightByYear = new Map<number, [number, number]>();

/** The US daylight-saving period of a year as local wall-clock milliseconds (treated as UTC): [start, end). */
function usDaylight(year: number): [number, number] {
  let period = daylightByYear.get(year);
  if (period === undefined) {
    const [startMonth, startN, endMonth, endN] = year >= 2007 ? [3, 2, 11, 1] : [4, 1, 10, 0];
    period = [
      Date.UTC(year, startMonth - 1, sunday(year, startMonth, startN), 2),
      // Daylight ends at 02:00 daylight time, 01:00 standard: wall clocks go from 01:59:59 back to 01:00.
      Date.UTC(year, endMonth - 1, sunday(year, endMonth, endN), 1),
    ];
    daylightByYear.set(year, period);
  }
  return period;
}

/** Offset in minutes east of UTC of a local wall-clock time (ms, read as UTC) in a zone; null if unknown. */
function offsetOfLocal(zone: string, wall: number, year: number): number | null {
  const fixed = FIXED[zone];
  if (fixed !== undefined) return fixed;
  const eu = EU[zone];
  if (eu !== undefined) {
    const [start, end] = euDaylight(year);
    // As wall-clock times: summer starts at start + standard offset and ends at end + summer offset; the
    // repeated hour before that end reads as summer time.
    return wall >= start + eu * 60_000 && wall < end + (eu + 60) * 60_000 ? eu + 60 : eu;
  }
  const standard = US[zone];
  if (standard === undefined) return null;
  const [start, end] = usDaylight(year);
  // In the repeated hour [end, end + 1h) the first (daylight) reading wins.
  return wall >= start && wall < end + 3_600_000 ? standard + 60 : standard;
}

/** Offset in minutes east of UTC of an instant (ms since the epoch) in a zone; null if unknown. */
export function offsetAtInstant(zone: string, instant: number): number | null {
  const fixed = FIXED[zone];
  if (fixed !== undefined) return fixed;
  const eu = EU[zone];
  if (eu !== undefined) {
    const [start, end] = euDaylight(new Date(instant).getUTCFullYear());
    return instant >= start && instant < end ? eu + 60 : eu;
  }
  const standard = US[zone];
  if (standard === undefined) return null;
  const year = new Date(instant + standard * 60_000).getUTCFullYear();
  const [start, end] = usDaylight(year);
  // start is 02:00 standard time, end 01:00 standard time (= 02:00 daylight).
  const startUtc = start - standard * 60_000;
  const endUtc = end - standard * 60_000;
  return instant >= startUtc && instant < endUtc ? standard + 60 : standard;
}

/** A parsed time: `date` as `Hand.date` documents it. */
export interface HandTime {
  date: string;
  timeZone: string | null;
}

/** `2014/01/06 7:21:05 ET`, and PokerStars' older `2007/10/15 - 05:34:03 (ET)`. */
const TIME =
  /(\d{4})\/(\d{1,2})\/(\d{1,2})(?: -)? (\d{1,2}):(\d{2}):(\d{2})(?: ([A-Z]{2,5})\b| \(([A-Z]{2,5})\))?/g;

const pad = (n: number, width = 2): string => String(n).padStart(width, "0");

/** `toISOString()` of an instant, without a Date (several times faster: this runs once per hand). */
function isoString(ms: number): string {
  const days = Math.floor(ms / 86_400_000);
  let rest = ms - days * 86_400_000;
  const hour = Math.floor(rest / 3_600_000);
  rest -= hour * 3_600_000;
  const minute = Math.floor(rest / 60_000);
  rest -= minute * 60_000;
  const second = Math.floor(rest / 1000);
  const milli = rest - second * 1000;
  // Days to a civil date (the proleptic Gregorian calendar, March-based years).
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(second)}.${pad(milli, 3)}Z`;
}

/**
 * Reads the first time of a header's time part that has a known zone (PokerStars writes the player's zone,
 * then ET in brackets), or the first time as local when no zone is known. Null when there is no time.
 */
export function parseHandTime(text: string): HandTime | null {
  let local: HandTime | null = null;
  TIME.lastIndex = 0;
  for (let m = TIME.exec(text); m !== null; m = TIME.exec(text)) {
    const year = Number(m[1]);
    const month = Number(m[2]);
    const day = Number(m[3]);
    const hour = Number(m[4]);
    const minute = Number(m[5]);
    const second = Number(m[6]);
    if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59)
      return null;
    const wall = Date.UTC(year, month - 1, day, hour, minute, second);
    const zone = m[7] ?? m[8];
    const offset = zone === undefined ? null : offsetOfLocal(zone, wall, year);
    if (offset !== null) return { date: isoString(wall - offset * 60_000), timeZone: zone! };
    local ??= {
      date: `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(second)}`,
      timeZone: null,
    };
  }
  return local;
}

/**
 * Writes a hand's time the way PokerStars does (`2014/01/06 7:21:05 ET`): in `timeZone` when the date is
 * UTC and the zone known, else the local time as stored, without a zone.
 */
export function formatHandTime(date: string, timeZone: string | null): string {
  let wall: Date;
  let suffix = "";
  if (date.endsWith("Z") && timeZone !== null) {
    const instant = Date.parse(date);
    const offset = offsetAtInstant(timeZone, instant) ?? 0;
    wall = new Date(instant + offset * 60_000);
    suffix = ` ${timeZone}`;
  } else {
    wall = new Date(`${date.replace(/Z$/, "")}Z`);
    if (date.endsWith("Z")) suffix = " UTC";
  }
  return (
    `${wall.getUTCFullYear()}/${pad(wall.getUTCMonth() + 1)}/${pad(wall.getUTCDate())} ` +
    `${wall.getUTCHours()}:${pad(wall.getUTCMinutes())}:${pad(wall.getUTCSeconds())}${suffix}`
  );
}

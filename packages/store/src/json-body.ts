/**
 * Node and range bodies written as UTF-8 bytes: the view's few fields through `JSON.stringify`, its class
 * objects (`weights`, `evs`: up to 16,432 keys each) byte by byte into a scratch buffer that is reused, so a
 * body costs one buffer of its own and little garbage. The bytes are exactly those of
 * `JSON.stringify(view)` (test/views.test.ts compares them for every node and action of three packs).
 */

/**
 * Visits the classes a distribution shows, in JSON key order; returns its combos. A weight or EV is passed
 * as `Math.round(x * 1e4)` (-0 as 0), the number `round4` divides by 1e4: an integer, which a call passes
 * without allocating (a fractional number is boxed on the heap at each call).
 */
export type EachShown = (
  visit: (c: number, weight4: number | undefined, ev4: number | undefined) => void,
) => number;

/** A distribution's place in the view: placeholders for its two objects, replaced by their bytes. */
export interface PlacedDistribution {
  readonly weights: string;
  readonly evs: string;
  readonly combos: number;
}

/** Each class name as the bytes of a JSON object key, colon included (`"AKs":`). */
export function jsonKeyBytes(names: readonly string[]): readonly Uint8Array[] {
  return names.map((n) => Buffer.from(`${JSON.stringify(n)}:`, "utf8"));
}

const COMMA = 0x2c;
const DOT = 0x2e;
const MINUS = 0x2d;
const ZERO = 0x30;
const OPEN = 0x7b;
const CLOSE = 0x7d;
/** A placeholder in the stringified view: `"\u0000` then the object's number, then `"`. */
const PLACEHOLDER = /"\\u0000(\d+)"/;

/** Bytes kept between bodies at most (a larger scratch, for a PLO body, is dropped after it). */
const KEEP_BYTES = 2 << 20;

export class BodyWriter {
  private buf = Buffer.allocUnsafe(64 * 1024);
  private len = 0;
  /** Start and end in `buf` of each written object, in placeholder order. */
  private spans: number[] = [];
  private evClass = new Int32Array(256);
  private evValue = new Float64Array(256);

  /** Writes one distribution's objects and returns placeholders for them. */
  distribution(keys: readonly Uint8Array[], each: EachShown): PlacedDistribution {
    let evCount = 0;
    let first = true;
    const start = this.len;
    this.byte(OPEN);
    const combos = each((c, weight, ev) => {
      if (weight !== undefined) {
        if (!first) this.byte(COMMA);
        first = false;
        this.bytes(keys[c]!);
        this.int4(weight);
      }
      if (ev !== undefined) {
        if (evCount === this.evClass.length) this.growEvs();
        this.evClass[evCount] = c;
        this.evValue[evCount] = ev;
        evCount++;
      }
    });
    this.byte(CLOSE);
    const middle = this.len;
    this.byte(OPEN);
    for (let i = 0; i < evCount; i++) {
      if (i > 0) this.byte(COMMA);
      this.bytes(keys[this.evClass[i]!]!);
      this.int4(this.evValue[i]!);
    }
    this.byte(CLOSE);
    const n = this.spans.length / 2;
    this.spans.push(start, middle, middle, this.len);
    return { weights: `\u0000${n}`, evs: `\u0000${n + 1}`, combos };
  }

  /** The body: `JSON.stringify(view)` with each placeholder replaced by its object's bytes. Resets, also on error. */
  finish(view: unknown): Buffer {
    try {
      const parts = JSON.stringify(view).split(PLACEHOLDER);
      // parts: text, object number, text, ..., text
      if (parts.length !== this.spans.length + 1) {
        throw new Error("BodyWriter: a view string looks like a placeholder");
      }
      let total = 0;
      for (let i = 0; i < parts.length; i += 2) total += Buffer.byteLength(parts[i]!);
      for (let i = 0; i < this.spans.length; i += 2) total += this.spans[i + 1]! - this.spans[i]!;
      const out = Buffer.allocUnsafeSlow(total);
      let at = 0;
      for (let i = 0; i < parts.length; i++) {
        if (i % 2 === 0) {
          at += out.write(parts[i]!, at, "utf8");
        } else {
          // Placeholders come in the order they were made, each once: a view string that looked like one
          // (a caller's text that is exactly NUL and digits) would break that order, and is refused.
          if (Number(parts[i]) !== (i - 1) / 2)
            throw new Error("BodyWriter: a view string looks like a placeholder");
          const k = Number(parts[i]) * 2;
          at += this.buf.copy(out, at, this.spans[k]!, this.spans[k + 1]!);
        }
      }
      // Every byte of the buffer is written (it is not zeroed): anything else is a bug, never a body.
      if (at !== total) throw new Error(`BodyWriter wrote ${at} of ${total} bytes`);
      return out;
    } finally {
      this.reset();
    }
  }

  /** Forgets what was written (also after a build that threw). */
  reset(): void {
    this.len = 0;
    this.spans = [];
    if (this.buf.length > KEEP_BYTES) this.buf = Buffer.allocUnsafe(64 * 1024);
  }

  private room(n: number): void {
    if (this.len + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.len + n));
    this.buf.copy(next, 0, 0, this.len);
    this.buf = next;
  }

  private byte(b: number): void {
    this.room(1);
    this.buf[this.len++] = b;
  }

  private bytes(b: Uint8Array): void {
    this.room(b.length);
    const buf = this.buf;
    let at = this.len;
    for (let i = 0; i < b.length; i++) buf[at++] = b[i]!;
    this.len = at;
  }

  /**
   * `n / 1e4` (`n` = `Math.round(x * 1e4)`, the value `round4` gives) as `number4` writes it: from `n` itself
   * while |n| < 2^51 (there `Math.round((n / 1e4) * 1e4)` is `n`), else through `number4`.
   */
  private int4(n: number): void {
    if (n < 2 ** 51 && n > -(2 ** 51)) this.digits4(n);
    else this.number4(n / 1e4);
  }

  /**
   * A number `round4` gave, as `String` writes it, from integers: exact while |v| * 1e4 < 2^52 (the decimal
   * with 4 places is then the shortest that reads back as `v`, and `String` uses no exponent between 1e-6
   * and 1e21); anything else, non-finite included, as `JSON.stringify` writes it.
   */
  private number4(v: number): void {
    const n = Math.round(v * 1e4);
    if (n < 2 ** 52 && n > -(2 ** 52)) this.digits4(n);
    else this.bytes(Buffer.from(JSON.stringify(v), "latin1"));
  }

  /**
   * `n / 1e4` for an integer |n| < 2^52: the whole part and the four decimals (trailing zeros dropped), digit
   * by digit, in 32-bit integer arithmetic while the number fits it.
   */
  private digits4(n: number): void {
    this.room(24);
    const buf = this.buf;
    let at = this.len;
    if (n === 0) {
      buf[at] = ZERO;
      this.len = at + 1;
      return;
    }
    let a = n;
    if (n < 0) {
      buf[at++] = MINUS;
      a = -n;
    }
    let whole: number;
    let f: number;
    if (a < 2 ** 31) {
      whole = (a / 10_000) | 0;
      f = a - whole * 10_000;
    } else {
      whole = Math.floor(a / 1e4);
      f = a - whole * 1e4;
    }
    if (whole < 10) {
      buf[at++] = ZERO + whole;
    } else {
      // The whole part's digits, written backwards after counting them.
      let digits = 1;
      for (let w = whole; w >= 10; w = Math.floor(w / 10)) digits++;
      at += digits;
      let end = at;
      do {
        const q = Math.floor(whole / 10);
        buf[--end] = ZERO + (whole - q * 10);
        whole = q;
      } while (whole > 0);
    }
    if (f !== 0) {
      const d1 = (f / 1000) | 0;
      const r1 = f - d1 * 1000;
      const d2 = (r1 / 100) | 0;
      const r2 = r1 - d2 * 100;
      const d3 = (r2 / 10) | 0;
      const d4 = r2 - d3 * 10;
      buf[at++] = DOT;
      buf[at++] = ZERO + d1;
      if (r1 !== 0) {
        buf[at++] = ZERO + d2;
        if (r2 !== 0) {
          buf[at++] = ZERO + d3;
          if (d4 !== 0) buf[at++] = ZERO + d4;
        }
      }
    }
    this.len = at;
  }

  private growEvs(): void {
    const classes = new Int32Array(this.evClass.length * 2);
    classes.set(this.evClass);
    const values = new Float64Array(this.evValue.length * 2);
    values.set(this.evValue);
    this.evClass = classes;
    this.evValue = values;
  }
}

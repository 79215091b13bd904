/**
 * The in-memory side of the daily meters: one `Meter` per subject (`key:<id>`, `ip:<address>`) and UTC day,
 * and the list of meters with counts not yet written. `AccessStore` counts calls here and writes them in
 * batches (`count = count + n`).
 *
 * A meter's count is split in three, so that no call is lost while a write is in progress:
 *   stored     what the database held as of the last read or write
 *   inFlight   counts taken by the write in progress (not yet committed)
 *   pending    counts of calls made since, waiting for the next write
 * A meter is on the dirty list exactly when it has pending counts (`queued`): a call made while a write of
 * the same meter is in flight queues the meter again, and a failed write returns its counts to `pending`.
 */

export interface Meter {
  readonly subject: string;
  readonly day: string;
  stored: number;
  inFlight: number;
  pending: number;
  /** True while the meter is on the dirty list. */
  queued: boolean;
}

/** One meter of a batch being written, with the amount the write adds. */
export interface BatchEntry {
  readonly meter: Meter;
  readonly amount: number;
}

export class MeterBook {
  private readonly meters = new Map<string, Meter>();
  private dirty: Meter[] = [];

  /** The meter of a subject for `day`, if it is in memory. */
  get(subject: string, day: string): Meter | undefined {
    const m = this.meters.get(subject);
    return m !== undefined && m.day === day ? m : undefined;
  }

  /**
   * Keeps a meter read from the database (`stored`), unless another call put one for the same day in memory
   * meanwhile: the meter in memory is returned then.
   */
  adopt(subject: string, day: string, stored: number): Meter {
    const again = this.get(subject, day);
    if (again !== undefined) return again;
    const old = this.meters.get(subject);
    // Yesterday's meter with counts still unwritten stays on the dirty list; only the map moves on.
    const m: Meter = { subject, day, stored, inFlight: 0, pending: 0, queued: false };
    if (old !== undefined && old.pending + old.inFlight === 0) this.meters.delete(subject);
    this.meters.set(subject, m);
    return m;
  }

  /** Calls counted on a meter: written, being written and waiting. */
  static total(m: Meter): number {
    return m.stored + m.inFlight + m.pending;
  }

  /** Counts one call. */
  add(m: Meter): void {
    m.pending += 1;
    if (!m.queued) {
      m.queued = true;
      this.dirty.push(m);
    }
  }

  get hasPending(): boolean {
    return this.dirty.length > 0;
  }

  /** Takes every pending count for a write: each meter's `pending` moves to `inFlight`. */
  take(): BatchEntry[] {
    const batch = this.dirty.map((meter) => {
      const amount = meter.pending;
      meter.queued = false;
      meter.pending = 0;
      meter.inFlight += amount;
      return { meter, amount };
    });
    this.dirty = [];
    return batch;
  }

  /** A write committed: its amounts are stored (`storedNow`: the database's totals, when the write read them). */
  committed(batch: readonly BatchEntry[], storedNow?: readonly number[]): void {
    batch.forEach(({ meter, amount }, i) => {
      meter.inFlight -= amount;
      meter.stored = storedNow?.[i] ?? meter.stored + amount;
    });
  }

  /** A write failed: its amounts wait for the next one. */
  failed(batch: readonly BatchEntry[]): void {
    for (const { meter, amount } of batch) {
      meter.inFlight -= amount;
      meter.pending += amount;
      if (!meter.queued && meter.pending > 0) {
        meter.queued = true;
        this.dirty.push(meter);
      }
    }
  }

  get size(): number {
    return this.meters.size;
  }

  /** Forgets meters with nothing unwritten (they are read again when next needed). */
  dropIdle(): void {
    for (const [subject, m] of this.meters) if (m.pending + m.inFlight === 0) this.meters.delete(subject);
  }
}

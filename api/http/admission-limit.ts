import { performance } from 'node:perf_hooks';

/** Options of {@link createAdmissionLimit}. */
export interface AdmissionLimitOptions {
  /** The limit a process starts with (default 16, within the bounds). */
  initial?: number;
  /** The limit never goes below this (what must run at once to keep the cores and the database busy). */
  min: number;
  /** The limit never goes above this; a fixed limit when equal to `min`. */
  max: number;
  /**
   * How long the least latency seen stays the no-load reference. The reference is the least of this
   * window and the one before, so a lasting change in latency (a slower facilitator) becomes the new
   * reference within two windows, and the limit opens again.
   */
  windowMs?: number;
  /** Milliseconds from any fixed origin (default `performance.now`; tests pass their own). */
  now?: () => number;
}

/** What a call's latency says about the work the gate admits. */
export interface AdmissionSample<T> {
  /**
   * The kind of work (a product and tier): each kind is compared with its own least latency, so a
   * slow product beside a fast one is not taken for queueing.
   */
  kind: string;
  /**
   * Whether this outcome is a sample of its kind's work (default: every outcome). A call answered
   * early (a refusal, a replay) is not: its latency would pass for the no-load reference. A call
   * that throws is never a sample.
   */
  counts?: (result: T) => boolean;
}

/** A first-come, first-served gate whose width follows the latency of what it admits. */
export interface AdmissionLimit {
  /**
   * Runs `work` once fewer than {@link limit} others run, in the order the calls came.
   * @param work - the admitted work; its time (not the wait before it) is the latency sample
   * @param sample - its kind, and which outcomes are samples (default: one kind, every outcome)
   * @returns what `work` returns, or throws what it throws
   */
  run<T>(work: () => Promise<T>, sample?: AdmissionSample<T>): Promise<T>;
  /** Calls running now. */
  readonly active: number;
  /** Calls waiting for their turn. */
  readonly waiting: number;
  /** How many may run at once now. */
  readonly limit: number;
}

// Vegas' band: fewer than ALPHA calls estimated queued downstream means room to admit one more;
// more than BETA, one fewer. Between them the limit holds.
const ALPHA = 3;
const BETA = 6;
const DEFAULT_WINDOW_MS = 10_000;
const DEFAULT_INITIAL = 16;

/**
 * Creates an admission gate in the manner of TCP Vegas (as Netflix's concurrency-limits applies it
 * to services). Each sampled call's latency is compared with the least latency its kind of work
 * has had lately: `limit x (1 - least / latency)` estimates how many of the admitted calls are
 * queued behind one another downstream (on the cores, in the facilitator, in the database) rather
 * than being worked on. Under that band the limit grows by one, above it shrinks by one, and it
 * grows only while the calls fill at least half of it, so a quiet spell does not open it wide.
 *
 * Why a gate at all: Node works on every admitted call a little at a time, so calls that arrive
 * together (a block's worth of settlements coming back at once, clients retrying in step) all
 * finish together, after the whole burst's work; waiting for the next block together, they come
 * back together again, and the burst never disperses. Admitted a few at a time, first come first
 * served, the first of a burst finish after their own work and the burst spreads out. Why adaptive:
 * the right width is the rate times the latency of what is admitted, which a remote facilitator
 * makes a hundred times what a local one does; a fixed width small enough to serve bursts in order
 * would cap the rate behind a remote one.
 * @param options - initial, least and greatest limit, the reference window
 * @returns the gate
 */
export function createAdmissionLimit(options: AdmissionLimitOptions): AdmissionLimit {
  const { min, max } = options;
  if (!(min >= 1 && max >= min)) throw new RangeError(`admission limit needs 1 <= min <= max (min ${min}, max ${max})`);
  const windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
  const now = options.now ?? (() => performance.now());
  let limit = Math.min(max, Math.max(min, options.initial ?? DEFAULT_INITIAL));
  let active = 0;
  // Waiting calls from `head` on; the admitted ones before it are cleared, and dropped in bulk.
  const queue: ((() => void) | undefined)[] = [];
  let head = 0;
  // Per kind of work, the least latency of the current window and of the one before it.
  let windowStart = now();
  const least = new Map<string, { now: number; before: number }>();

  const observe = (kind: string, latency: number, busy: number) => {
    const at = now();
    if (at - windowStart >= windowMs) {
      const stale = at - windowStart >= 2 * windowMs;
      for (const w of least.values()) {
        w.before = stale ? Infinity : w.now;
        w.now = Infinity;
      }
      windowStart = at;
    }
    let w = least.get(kind);
    if (!w) least.set(kind, (w = { now: Infinity, before: Infinity }));
    w.now = Math.min(w.now, latency);
    if (latency <= 0) return;
    const queued = limit * (1 - Math.min(w.now, w.before) / latency);
    if (queued > BETA) limit = Math.max(min, limit - 1);
    else if (queued < ALPHA && busy * 2 >= limit) limit = Math.min(max, limit + 1);
  };

  const admitNext = () => {
    while (active < limit && head < queue.length) {
      const start = queue[head]!;
      queue[head++] = undefined;
      if (head > 1024 && head * 2 > queue.length) {
        queue.splice(0, head);
        head = 0;
      }
      active++;
      start();
    }
  };

  const admitted = async <T>(work: () => Promise<T>, sample: AdmissionSample<T> | undefined): Promise<T> => {
    const began = now();
    try {
      const result = await work();
      // `active` still counts this call: how full the gate was while it ran.
      if (sample?.counts?.(result) ?? true) observe(sample?.kind ?? '', now() - began, active);
      return result;
    } finally {
      active--;
      admitNext();
    }
  };

  return {
    run<T>(work: () => Promise<T>, sample?: AdmissionSample<T>): Promise<T> {
      if (active < limit && head === queue.length) {
        active++;
        return admitted(work, sample);
      }
      return new Promise<void>((resolve) => queue.push(resolve)).then(() => admitted(work, sample));
    },
    get active() {
      return active;
    },
    get waiting() {
      return queue.length - head;
    },
    get limit() {
      return limit;
    },
  };
}

/** When `npm start` restarts a crashed web or worker, and when it gives up. */
export interface RestartPolicy {
  /** The crash of one process that stops the stack when this many happened within {@link windowMs}. */
  maxCrashes: number;
  /** The window crashes are counted in. */
  windowMs: number;
  /** Wait before the first restart; doubled for every further crash in the window. */
  firstDelayMs: number;
  /** The longest wait before a restart. */
  maxDelayMs: number;
}

/** Restarts after 1, 2, 4 and 8 s; the fifth crash of one process within a minute stops the stack (README). */
export const DEFAULT_RESTART_POLICY: RestartPolicy = { maxCrashes: 5, windowMs: 60_000, firstDelayMs: 1_000, maxDelayMs: 8_000 };

/** What to do about a crash. */
export type RestartDecision = { restart: true; delayMs: number; crashes: number } | { restart: false; crashes: number };

/** The recent crashes of one supervised process, and what each one calls for. */
export class CrashHistory {
  readonly #policy: RestartPolicy;
  #crashes: number[] = [];

  /** @param policy - see {@link RestartPolicy} */
  constructor(policy: RestartPolicy) {
    this.#policy = policy;
  }

  /**
   * Records a crash.
   * @param now - when it happened (ms)
   * @returns restart after an exponentially growing delay, or give up after too many crashes in the window
   */
  record(now: number): RestartDecision {
    const { maxCrashes, windowMs, firstDelayMs, maxDelayMs } = this.#policy;
    this.#crashes = this.#crashes.filter((at) => now - at < windowMs);
    this.#crashes.push(now);
    const crashes = this.#crashes.length;
    if (crashes >= maxCrashes) return { restart: false, crashes };
    return { restart: true, delayMs: Math.min(maxDelayMs, firstDelayMs * 2 ** (crashes - 1)), crashes };
  }
}

/** The embedded check's share of this web process: how many checks may run at once. */
export interface EmbedCapacity {
  /**
   * Takes a slot when one is free.
   * @returns the slot's release, or undefined when every slot is taken
   */
  tryEnter(): (() => void) | undefined;
  /** Checks running now. */
  readonly active: number;
}

/**
 * A fixed per-process limit on embedded checks in flight. It refuses rather than queues: a check
 * is typed against, so a late answer is worth less than a prompt "busy" the component retries
 * after Retry-After with the same key (and no charge).
 * @param max - checks at once
 * @returns the gate
 */
export function createEmbedCapacity(max: number): EmbedCapacity {
  let active = 0;
  return {
    tryEnter() {
      if (active >= max) return undefined;
      active++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        active--;
      };
    },
    get active() {
      return active;
    },
  };
}

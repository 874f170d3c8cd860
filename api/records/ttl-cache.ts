/**
 * A small in-process cache whose entries expire after a fixed time: a value computed at `t` is
 * served until `t + ttlMs`, never later, so a change shows within `ttlMs`. Concurrent misses of
 * one key share one computation. Bounded: when full, the oldest entry is dropped.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { expires: number; value: Promise<V> }>();

  /**
   * @param ttlMs - how long a value is served
   * @param maxEntries - how many keys are kept at most
   * @param now - the clock (tests of the cache pass their own)
   */
  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 256,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The cached value of a key, or a fresh one from `load` (a failed load is not cached).
   * @param key - cache key
   * @param load - computes the value
   * @returns the value
   */
  get(key: string, load: () => Promise<V>): Promise<V> {
    const at = this.now();
    const hit = this.entries.get(key);
    if (hit && hit.expires > at) return hit.value;
    if (hit) this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    const value = load();
    const entry = { expires: at + this.ttlMs, value };
    this.entries.set(key, entry);
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return value;
  }
}

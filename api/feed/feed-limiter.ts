import { AppError } from '../../shared/errors';

/** How many live-feed streams may be open, per caller and in all. */
export interface FeedLimits {
  maxPerCaller: number;
  maxConnections: number;
}

/** Counts one process's open live-feed streams. */
export interface FeedLimiter {
  /**
   * Takes a slot for a caller.
   * @param caller - the caller identity (an IPv4 address or an IPv6 /64)
   * @returns the function that gives the slot back (safe to call more than once)
   * @throws AppError feed_connection_limit (429, with Retry-After) when the caller or the process is full
   */
  acquire(caller: string): () => void;
  /** Open streams in all. */
  readonly size: number;
}

// A full feed frees a slot only when a client leaves; there is no point retrying at once.
const RETRY_AFTER_SECONDS = 30;

function limitReached(scope: 'caller' | 'total', limit: number): AppError {
  const message =
    scope === 'caller'
      ? `This client already has ${limit} live-feed streams open; close one (one stream per dashboard is enough) and retry.`
      : 'The live feed is at its connection limit; retry later.';
  return new AppError(429, 'feed_connection_limit', message, {
    details: { scope, limit, retry_after_seconds: RETRY_AFTER_SECONDS },
    headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
  });
}

/**
 * Limits the live feed's open streams: each one holds a connection, a hub listener and a
 * heartbeat timer, and started with a backlog query, so an unlimited feed lets one client take the
 * process's memory (2,000 streams from one client took web from 112 to 295 MB).
 * @param limits - per caller and in all (per web process)
 * @returns the limiter
 */
export function createFeedLimiter(limits: FeedLimits): FeedLimiter {
  const perCaller = new Map<string, number>();
  let total = 0;
  return {
    acquire(caller) {
      const mine = perCaller.get(caller) ?? 0;
      if (mine >= limits.maxPerCaller) throw limitReached('caller', limits.maxPerCaller);
      if (total >= limits.maxConnections) throw limitReached('total', limits.maxConnections);
      perCaller.set(caller, mine + 1);
      total += 1;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        total -= 1;
        const left = (perCaller.get(caller) ?? 1) - 1;
        if (left > 0) perCaller.set(caller, left);
        else perCaller.delete(caller);
      };
    },
    get size() {
      return total;
    },
  };
}

import type { Redis } from 'ioredis';
import { feedChannel, type FeedEvent } from '../../shared/payments/feed';
import type { Logger } from '../../shared/logger';

/** Receives every settlement published by any worker, and the end of the feed when the process stops. */
export interface FeedListener {
  event(event: FeedEvent): void;
  end(): void;
}

/** One web process's subscription to the live feed, shared by all of its SSE clients. */
export interface FeedHub {
  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: FeedListener): () => void;
  /** Number of connected listeners (for tests and metrics). */
  readonly size: number;
  close(): Promise<void>;
}

/**
 * Subscribes one dedicated Redis connection to the feed channel and fans each message out to the
 * process's SSE clients. Every web process has its own hub, so every process sees every settlement.
 * @param subscriber - a dedicated connection (it enters subscriber mode); closed by the caller
 * @param prefix - the deployment's queue prefix
 * @param log - logger
 * @returns the hub (subscribed as soon as Redis answers)
 */
export function createFeedHub(subscriber: Redis, prefix: string, log: Logger): FeedHub {
  const listeners = new Set<FeedListener>();
  const channel = feedChannel(prefix);
  subscriber.on('message', (from: string, message: string) => {
    if (from !== channel) return;
    let event: FeedEvent;
    try {
      event = JSON.parse(message) as FeedEvent;
    } catch (err) {
      log.warn({ err }, 'unreadable feed message');
      return;
    }
    for (const listener of listeners) listener.event(event);
  });
  // Not awaited: while Redis is down the subscription waits in the connection's offline queue, and
  // the API serves everything else meanwhile.
  subscriber.subscribe(channel).catch((err: unknown) => log.warn({ err }, 'feed subscription failed'));
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get size() {
      return listeners.size;
    },
    async close() {
      // Ends every open stream, so the HTTP server can close without waiting for clients to leave.
      for (const listener of listeners) listener.end();
      listeners.clear();
      if (subscriber.status === 'ready') await subscriber.unsubscribe(channel).catch(() => undefined);
    },
  };
}

import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import type { Logger } from '../logger';
import { DEFAULT_NETWORK_CONFIG, readNetworkConfig, type NetworkConfig } from './network-config';

/** One process's view of the runtime network configuration, kept current by Redis pub/sub. */
export interface NetworkConfigCache {
  /** The configuration now (synchronous: quotes read it on every request). */
  current(): NetworkConfig;
  /** Re-reads the database now (the process that made a change calls it before answering). */
  refresh(): Promise<NetworkConfig>;
  /** Tells every process (this one included) to re-read the database. */
  announce(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The Redis channel of configuration changes, under the deployment's queue prefix.
 * @param queuePrefix - QUEUE_PREFIX
 * @returns the channel name
 */
export function networkConfigChannel(queuePrefix: string): string {
  return `${queuePrefix}:network-config:changed`;
}

/**
 * Starts a process's cache: reads the database once, then re-reads it on every announcement on
 * the channel. The message carries no values: the database is the one source, so announcements
 * that arrive out of order still end on the latest row. A periodic re-read covers announcements
 * lost while Redis was away.
 * @param options - DataSource, a dedicated subscriber connection (it enters subscriber mode), a
 *   connection to publish on, the queue prefix, a logger and the re-read interval
 * @returns the cache, subscribed and loaded
 */
export async function startNetworkConfigCache(options: {
  dataSource: DataSource;
  subscriber: Redis;
  publisher: Redis;
  queuePrefix: string;
  log: Logger;
  resyncMs?: number;
}): Promise<NetworkConfigCache> {
  const { dataSource, subscriber, publisher, log } = options;
  const channel = networkConfigChannel(options.queuePrefix);
  let value: NetworkConfig = DEFAULT_NETWORK_CONFIG;
  let closed = false;
  const refresh = async () => {
    value = await readNetworkConfig(dataSource);
    return value;
  };
  const refreshQuietly = () => {
    if (closed) return;
    refresh().catch((err: unknown) => log.warn({ err }, 'network config refresh failed'));
  };
  subscriber.on('message', (ch: string) => {
    if (ch === channel) refreshQuietly();
  });
  await subscriber.subscribe(channel);
  await refresh();
  const timer = setInterval(refreshQuietly, options.resyncMs ?? 30_000);
  timer.unref();
  return {
    current: () => value,
    refresh,
    async announce() {
      await publisher.publish(channel, '1');
    },
    async close() {
      closed = true;
      clearInterval(timer);
    },
  };
}

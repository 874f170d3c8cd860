import { createHash } from 'node:crypto';
import path from 'node:path';

/**
 * The BullMQ key prefix of an `npm start` stack. An explicit QUEUE_PREFIX wins; otherwise it is
 * derived from the data folder (`humanlike-` and 8 hex characters of a hash of its resolved path),
 * so two checkouts started with their own DATA_DIR on the one local Redis never share queues
 * (each would take the other's jobs), while restarts on one folder keep theirs.
 * @param configured - QUEUE_PREFIX as set in the environment (blank: not set)
 * @param dataDir - the data folder
 * @returns the prefix web and worker get
 */
export function stackQueuePrefix(configured: string | undefined, dataDir: string): string {
  const explicit = configured?.trim();
  if (explicit) return explicit;
  return `humanlike-${createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 8)}`;
}

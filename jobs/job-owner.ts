import type { Queue } from 'bullmq';

/**
 * The payload field naming the database of the web that enqueued a job (its `database_identity`
 * id). A worker only runs a stamped job when the stamp is its own database's id: two stacks that
 * share a Redis queue prefix would otherwise take each other's jobs. Jobs without the
 * field (an older web, the scheduled maintenance jobs) run as before.
 *
 * Every job payload schema lists this field ({@link JOB_OWNER_PROPERTIES}): the stamp is added
 * to every job enqueued through {@link stampJobOwner}.
 */
export const JOB_OWNER_FIELD = 'databaseId';

/** The JSON schema property of the stamp, to spread into every job payload schema's `properties`. */
export const JOB_OWNER_PROPERTIES = {
  [JOB_OWNER_FIELD]: { type: 'string', pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' },
} as const;

// Set once per queue where it is made (createQueue), read where jobs are added (enqueueWithDeadline).
const owners = new WeakMap<Queue, string>();

/**
 * Records which database a producer queue's jobs belong to.
 * @param queue - a producer queue
 * @param databaseId - the web's database identity
 */
export function setJobOwner(queue: Queue, databaseId: string): void {
  owners.set(queue, databaseId);
}

/**
 * The payload with the queue's owner stamped on it (unchanged when the queue has no owner).
 * @param queue - the queue the job goes to
 * @param payload - job data
 * @returns the data to enqueue
 */
export function stampJobOwner<P>(queue: Queue, payload: P): P {
  const owner = owners.get(queue);
  if (owner === undefined || payload === null || typeof payload !== 'object') return payload;
  return { ...payload, [JOB_OWNER_FIELD]: owner };
}

/**
 * The database a job's payload is stamped with.
 * @param data - job data
 * @returns the stamp, or undefined for an unstamped job
 */
export function jobOwnerOf(data: unknown): string | undefined {
  if (data === null || typeof data !== 'object') return undefined;
  const owner = (data as Record<string, unknown>)[JOB_OWNER_FIELD];
  return typeof owner === 'string' ? owner : undefined;
}

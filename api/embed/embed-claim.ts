import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/** A held claim on one key: the check under it runs only here until it is released. */
export interface EmbedClaim {
  release(): Promise<void>;
}

// Deletes the claim only if it is still ours (it may have lapsed and been taken by another request).
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

/**
 * Claims a key for the duration of one check, across every web process (Redis `SET NX PX`). A
 * second request with the same key while the first runs finds the claim taken and does not run;
 * the claim lapses on its own after `ttlMs`, so a web process that dies holding one frees it.
 * The database, not this claim, is what makes a charge happen once: the claim keeps the work
 * (and the provider call) from running twice.
 * @param redis - the producer connection
 * @param name - the claim's Redis key (prefixed, hashed: no key or token in clear)
 * @param ttlMs - longer than a check can take (enqueue and wait deadlines)
 * @returns the claim, or undefined when another request holds it
 */
export async function claimEmbedKey(redis: Redis, name: string, ttlMs: number): Promise<EmbedClaim | undefined> {
  const token = randomUUID();
  const taken = await redis.set(name, token, 'PX', ttlMs, 'NX');
  if (taken !== 'OK') return undefined;
  return {
    async release() {
      await redis.eval(RELEASE, 1, name, token);
    },
  };
}

import type { QueryOf } from '../http/ajv';
/**
 * JSON schema of {@link HealthCapacityQuery} (interface description §8: 1 to 100000, default 2000).
 * One iteration is one character of reply text scored (see `api/threads/capacity.thread.ts`).
 */
export const healthCapacityQuerySchema = {
  type: 'object',
  properties: {
    iterations: {
      type: 'integer',
      minimum: 1,
      maximum: 100_000,
      default: 2000,
      description:
        'How much reply text the benchmark scores, in characters: one iteration is one character. It scores its fixed samples ' +
        'in turn, each whole, until they add up to this many characters; 100000 is about 900 scores.',
    },
  },
} as const;

/** Query of `GET /api/health-capacity` after coercion and defaults. */
export type HealthCapacityQuery = QueryOf<typeof healthCapacityQuerySchema>;

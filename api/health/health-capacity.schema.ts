/** Query of `GET /api/health-capacity` after coercion and defaults. */
export interface HealthCapacityQuery {
  iterations: number;
}

/** JSON schema of {@link HealthCapacityQuery} (interface description §8: 1 to 100000, default 2000). */
export const healthCapacityQuerySchema = {
  type: 'object',
  properties: {
    iterations: {
      type: 'integer',
      minimum: 1,
      maximum: 100_000,
      default: 2000,
      description: 'How many scoring runs the benchmark times.',
    },
  },
} as const;

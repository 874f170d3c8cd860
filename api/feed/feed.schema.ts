import type { QueryOf } from '../http/ajv';

/** Query of `GET /api/feed`. */
export const feedQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    recent: { type: 'integer', minimum: 0, maximum: 100, default: 20, description: 'How many past settlements to send first (oldest first).' },
  },
} as const;

/** A validated feed query. */
export type FeedQuery = QueryOf<typeof feedQuerySchema>;

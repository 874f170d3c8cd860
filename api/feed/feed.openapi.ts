import type { OperationSpec } from '../http/openapi/operation';
import { errorBodySchema } from '../http/responses.schema';
import { feedQuerySchema } from './feed.schema';

/** OpenAPI spec of the live feed. */
export const feedOperations: OperationSpec[] = [
  {
    method: 'get',
    path: '/api/feed',
    operationId: 'getFeed',
    summary: 'Live feed of settled paid sessions, as server-sent events.',
    description:
      'text/event-stream. Each settlement is one event `settlement` whose data is JSON {type, ledger_id, product, tier, ' +
      'profile, score, passed, result_id, network, amount, asset, payer, transaction, settled_at}; payer and transaction ' +
      'show only their first 6 and last 4 characters, and no submitted text is ever sent. The stream starts with the ' +
      '`recent` latest settlements, then follows live; a comment line is sent every 15 s. Every web process relays every ' +
      'settlement (Redis pub/sub). A client may keep a few streams open at once (FEED_MAX_PER_CALLER, 5 by default, ' +
      'per address or IPv6 /64); beyond that, or when the server is full, the answer is 429 feed_connection_limit ' +
      'with Retry-After.',
    tags: ['public'],
    query: feedQuerySchema,
    responses: {
      '200': { description: 'The event stream (text/event-stream).' },
      '429': {
        description: 'feed_connection_limit: too many open streams from this client (details.scope "caller") or in all ("total"); see Retry-After.',
        schema: errorBodySchema,
      },
    },
  },
];

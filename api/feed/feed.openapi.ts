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
      'text/event-stream. Each settled ledger row (one per settled payment, of any product) is one event `settlement` whose ' +
      'data is JSON {type, ledger_id, product, kind, label, tier, profile, score, passed, result_id, network, amount, asset, ' +
      'payer, transaction, settled_at}. kind is scored_session (a simulate session or a duel leg), analysis (stress test, ' +
      'rewrite, script check), report (progress report, training-dataset export) or purchase (bundle, coaching pack, role-play ' +
      'room), and label names the product for people; score (the EQ score) and passed are set for a scored session only, null ' +
      'for every other kind. A basic session paid with a bundle credit is no settlement and sends no event (the bundle ' +
      'purchase did). payer and transaction show only their first 6 and last 4 characters, and no submitted text is ever ' +
      'sent. The stream starts with the ' +
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

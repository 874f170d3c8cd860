import type { OperationSpec } from '../http/openapi/operation';
import { COMMON_RESPONSES, errorBodySchema } from '../http/responses.schema';
import { COUNTING_NOTE, CARD_PRIVACY } from './build-cards';
import { cardQuerySchema, proofCardListSchema, proofCardSchema, slugSchema } from './proof-cards.schema';

const SNAPSHOT =
  'Free and public. The evidence is a snapshot that the maintenance job "proof-card refresh" rebuilds every PROOF_CARD_REFRESH_MS ' +
  '(60 s by default; rebuilt on demand when none is stored or it is three intervals old), over the last PROOF_CARD_WINDOW_DAYS UTC days ' +
  '(30 by default: freshness.metrics_window); the price is read live at each request (current_price.quoted_at). Each serving of a card ' +
  'counts as one proof_discoveries of it (canary requests excepted).';

/** OpenAPI specs of the proof cards. */
export const proofCardOperations: OperationSpec[] = [
  {
    method: 'get',
    path: '/api/proof-cards',
    operationId: 'listProofCards',
    summary: 'Every proof card: per paid product, what it does, its request schema and price, and aggregate evidence that paid calls work.',
    description: `${SNAPSHOT} ${CARD_PRIVACY} Counting: ${COUNTING_NOTE}`,
    tags: ['public'],
    responses: {
      '200': { description: 'The cards.', schema: proofCardListSchema },
      '500': COMMON_RESPONSES['500'],
    },
  },
  {
    method: 'get',
    path: '/api/proof-cards/{slug}',
    operationId: 'getProofCard',
    summary: 'One proof card, as JSON, Markdown or an HTML page.',
    description: `${SNAPSHOT} format=markdown answers text/markdown with the same members; format=html answers a page for people (text/html, inline CSS, no script): the price in USDC (lamports too only where the legacy SOL rail is configured), the evidence as a table, the request to copy and the payment steps, every value escaped. An unknown slug is a 404 proof_card_not_found; a format other than json, markdown or html is a 422.`,
    tags: ['public'],
    pathParams: { slug: slugSchema },
    query: cardQuerySchema,
    responses: {
      '200': {
        description: 'The card: JSON by default, Markdown (text/markdown) with format=markdown, a page (text/html) with format=html.',
        schema: proofCardSchema,
        alternatives: [
          { mediaType: 'text/markdown', schema: { type: 'string' } },
          { mediaType: 'text/html', schema: { type: 'string' } },
        ],
      },
      '404': { description: 'proof_card_not_found: no paid product has this slug.', schema: errorBodySchema },
      ...COMMON_RESPONSES,
    },
  },
];

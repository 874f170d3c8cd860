import { EVIDENCE_COUNTERS } from '../../shared/proof-cards/evidence-store';
import type { QueryOf } from '../http/ajv';

/** The formats a single card is served in. */
export const CARD_FORMATS = ['json', 'markdown', 'html'] as const;

/** A card's format. */
export type CardFormat = (typeof CARD_FORMATS)[number];

/** The query of GET /api/proof-cards/{slug} (coerced from text; default json). */
export const cardQuerySchema = {
  type: 'object',
  properties: {
    format: { type: 'string', enum: [...CARD_FORMATS], default: 'json', description: 'json (default), markdown (text/markdown) or html (text/html: a page for people).' },
  },
} as const;

/** The validated card query. */
export type CardQuery = QueryOf<typeof cardQuerySchema>;

/** A card's slug: the catalog product id. */
export const slugSchema = { type: 'string', pattern: '^[a-z0-9-]{1,64}$', description: 'The paid product id (simulate, stress-test, ...); the list gives every id.' } as const;

const count = { type: 'integer', minimum: 0 } as const;
const nullableMs = { type: ['integer', 'null'], minimum: 0 } as const;
const timestamp = { type: 'string', format: 'date-time' } as const;

const plainCounters = EVIDENCE_COUNTERS.filter((c) => !c.startsWith('proof_'));

/** The evidence of a card. */
export const evidenceSchema = {
  type: 'object',
  required: [...plainCounters, 'latency_ms', 'freshest_success_at', 'attribution'],
  properties: {
    ...Object.fromEntries(plainCounters.map((c) => [c, count])),
    latency_ms: { type: 'object', required: ['p50', 'p95'], properties: { p50: nullableMs, p95: nullableMs } },
    freshest_success_at: { type: ['string', 'null'], format: 'date-time' },
    attribution: {
      type: 'object',
      required: ['proof_discoveries', 'proof_to_successful_call', 'proof_to_second_paid_call'],
      properties: { proof_discoveries: count, proof_to_successful_call: count, proof_to_second_paid_call: count },
    },
  },
} as const;

/** One proof card. */
export const proofCardSchema = {
  type: 'object',
  required: [
    'id',
    'task',
    'endpoint',
    'method',
    'request_schema',
    'realistic_example',
    'current_price',
    'freshness',
    'evidence',
    'copyable_request',
    'payment_flow',
    'privacy',
    'counting_note',
  ],
  properties: {
    id: { type: 'string', description: 'The slug: the catalog product id.' },
    task: { type: 'string' },
    endpoint: { type: 'string', description: 'Path of the paid endpoint.' },
    method: { const: 'POST' },
    request_schema: { type: 'object', description: 'The JSON schema object that validates the request body of this endpoint (the same object the server compiles).' },
    realistic_example: { type: 'object', description: 'A request body that validates against request_schema; the wallet is a placeholder.' },
    current_price: {
      type: 'object',
      required: ['quoted_at', 'base_lamports', 'base_usdc_micro', 'note', 'priced_endpoint'],
      properties: {
        quoted_at: timestamp,
        base_lamports: count,
        base_usdc_micro: { ...count, description: 'USDC atomic units (6 decimals).' },
        note: { type: 'string' },
        priced_endpoint: { type: 'string', description: '`METHOD /path` the price is for.' },
      },
    },
    freshness: {
      type: 'object',
      required: ['card_generated_at', 'metrics_window'],
      properties: {
        card_generated_at: { ...timestamp, description: 'When the evidence snapshot was built (the refresh job).' },
        metrics_window: {
          type: 'object',
          required: ['days', 'from', 'to', 'granularity'],
          properties: { days: count, from: timestamp, to: timestamp, granularity: { const: 'utc_day' } },
        },
      },
    },
    evidence: evidenceSchema,
    copyable_request: {
      type: 'object',
      required: ['method', 'url', 'headers', 'body', 'curl'],
      properties: {
        method: { const: 'POST' },
        url: { type: 'string', description: 'Absolute URL with ?via=proof-card (the attribution marker; no identity).' },
        headers: { type: 'object' },
        body: { type: 'object' },
        curl: { type: 'string' },
      },
    },
    payment_flow: {
      type: 'array',
      items: { type: 'object', required: ['step', 'action', 'detail'], properties: { step: count, action: { type: 'string' }, detail: { type: 'string' } } },
    },
    privacy: { type: 'string' },
    counting_note: { type: 'string' },
  },
} as const;

/** GET /api/proof-cards. */
export const proofCardListSchema = {
  type: 'object',
  required: ['generated_at', 'cards', 'corpus_evidence', 'privacy'],
  properties: {
    generated_at: timestamp,
    cards: { type: 'array', items: proofCardSchema, description: 'One card per paid product this server serves.' },
    corpus_evidence: {
      type: 'object',
      required: ['url', 'page', 'scope'],
      properties: { url: { type: 'string' }, page: { type: 'string' }, scope: { type: 'string' } },
    },
    privacy: { type: 'string' },
  },
} as const;

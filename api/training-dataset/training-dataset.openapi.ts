import { PRODUCT_TERMS, PRODUCTS } from '../../shared/products';
import type { OperationSpec } from '../http/openapi/operation';
import { PAID_CALL_RESPONSES, RECEIPT_HEADERS, paidCallHeaders, pricePhrase } from '../payments/payment.openapi';
import { REPLAY_HEADER } from '../payments/quote';
import { DATASET_FORMAT, DATASET_PAGE_ROWS } from './dataset-stream';
import { trainingDatasetRequestSchema } from './training-dataset.schema';

const product = PRODUCTS.trainingDataset;

// The schema of one line of the stream; the 200 is JSON Lines, each line one of these.
const recordSchema = {
  description: 'One line of the application/jsonl body.',
  oneOf: [
    {
      type: 'object',
      description:
        'Line 1, record_type manifest: the paid response (result_id, format, records, high_water_mark, include_text, improvement, referral_code, reward_bundle_tokens, payment).',
      required: ['record_type', 'result_id', 'format', 'records', 'high_water_mark', 'improvement', 'referral_code', 'payment'],
      properties: {
        record_type: { const: 'manifest' },
        result_id: { type: 'string', format: 'uuid' },
        format: { const: DATASET_FORMAT },
        records: { type: 'integer', minimum: 0 },
        high_water_mark: { type: ['object', 'null'], properties: { settled_at: { type: 'string' }, id: { type: 'string', format: 'uuid' } } },
        include_text: { type: 'boolean' },
        improvement: { type: 'string' },
        referral_code: { type: 'string' },
        reward_bundle_tokens: { type: 'array', items: { type: 'string' } },
        payment: { type: 'object' },
      },
    },
    {
      type: 'object',
      description: 'One line per scored session or stress-test run, in ledger order (settled_at, then session_id).',
      required: ['record_type', 'index', 'session_id', 'settled_at', 'product', 'metrics', 'persona_targets', 'measured', 'gaps', 'text', 'text_stored'],
      properties: {
        record_type: { const: 'session' },
        index: { type: 'integer', minimum: 0 },
        session_id: { type: 'string', format: 'uuid' },
        settled_at: { type: 'string' },
        product: { type: 'string' },
        tier: { type: ['string', 'null'] },
        profile: { type: ['string', 'null'] },
        metrics: { type: 'object', properties: { eq_score: { type: ['number', 'null'] }, passed: { type: ['boolean', 'null'] } } },
        persona_targets: { type: ['object', 'null'], description: 'Per text dimension { target, tolerance }, frozen when the session was scored; null for older sessions.' },
        measured: { type: ['object', 'null'], description: 'Per text dimension, the measured value (0..1).' },
        gaps: { type: ['object', 'null'], description: 'Per text dimension, measured - target.' },
        text: { type: ['string', 'null'], description: 'The reply, only where its paid request set store_text_for_training: true (and include_text is true).' },
        text_stored: { type: 'boolean' },
      },
    },
    { type: 'object', description: 'Last line: the number of session lines sent. A stream without it was cut.', properties: { record_type: { const: 'end' }, records: { type: 'integer' } } },
  ],
};

const [manifestLine, sessionLine] = recordSchema.oneOf as [{ required: string[]; properties: Record<string, object> }, object];

// The default answer: the manifest's members and every session record, in one object.
const documentSchema = {
  type: 'object',
  description: 'application/json (the default): the manifest members plus sessions, the session records in ledger order.',
  required: [...manifestLine.required.filter((k) => k !== 'record_type'), 'sessions'],
  properties: {
    ...Object.fromEntries(Object.entries(manifestLine.properties).filter(([k]) => k !== 'record_type')),
    sessions: { type: 'array', items: sessionLine },
  },
};

/** OpenAPI specs of the training-dataset routes. */
export const trainingDatasetOperations: OperationSpec[] = [
  {
    method: 'post',
    path: product.path,
    operationId: 'postTrainingDataset',
    summary: `Training-dataset export of the paying wallet (${pricePhrase(product)}) over x402, as JSON or JSON Lines.`,
    description:
      "The wallet's scored history as fine-tuning-ready records (format " +
      `${DATASET_FORMAT}): one per scored session or stress-test run (per-session metrics, ` +
      'the persona targets frozen when it was scored, measured values and per-dimension gaps, and the raw text only where ' +
      'the wallet consented with store_text_for_training). By default one JSON object: the manifest members and sessions. ' +
      'With Accept: application/jsonl (or application/x-ndjson), JSON Lines: a manifest line, one session line per record, ' +
      'then an end line with the count (a stream without it was cut). Either way the answer is streamed. The export is fixed at payment on the exports ' +
      'queue (record count and high-water mark); the rows are streamed in keyset pages of ' +
      `${DATASET_PAGE_ROWS}, so thousands of sessions never sit in memory. A replay with the same authorization ` +
      `(${REPLAY_HEADER}: true) streams the same rows. A wallet with no history gets a manifest with records 0 and an end ` +
      `line, still paid. Loyalty: ${PRODUCT_TERMS.loyaltyDiscountPct} percent off from ${PRODUCT_TERMS.loyaltyThresholdSessions} ` +
      'settled paid sessions.',
    tags: ['paid'],
    body: trainingDatasetRequestSchema,
    headers: paidCallHeaders(product),
    responses: {
      '200': {
        description: 'The export: JSON by default; JSON Lines (schema: one line) when Accept asks for application/jsonl.',
        schema: documentSchema,
        alternatives: [{ mediaType: 'application/jsonl', schema: recordSchema }],
        headers: RECEIPT_HEADERS,
      },
      ...PAID_CALL_RESPONSES,
    },
  },
  {
    method: 'get',
    path: product.path,
    operationId: 'getTrainingDatasetQuote',
    summary: 'The payment challenge of a training-dataset export (quote only; never settles).',
    tags: ['paid'],
    responses: { '402': PAID_CALL_RESPONSES['402'] },
  },
];

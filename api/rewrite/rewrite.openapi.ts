import { PRODUCTS } from '../../shared/products';
import type { OperationSpec } from '../http/openapi/operation';
import { errorBodySchema } from '../http/responses.schema';
import { PAID_CALL_RESPONSES, RECEIPT_HEADERS, paidCallHeaders, pricePhrase } from '../payments/payment.openapi';
import { REPLAY_HEADER } from '../payments/quote';
import { rewriteRequestSchema } from './rewrite.schema';

const product = PRODUCTS.rewrite;

const scoreSchema = {
  type: 'object',
  required: ['eq_score', 'passed', 'style_fit', 'machine_penalty', 'dimensions', 'signals'],
  properties: {
    eq_score: { type: 'number', minimum: 0, maximum: 100 },
    passed: { type: 'boolean' },
    style_fit: { type: 'number' },
    machine_penalty: { type: 'number' },
    dimensions: { type: 'object', description: 'Per text dimension: measured and target.' },
    signals: { type: 'array', items: { type: 'string' }, description: 'Machine-like signals present.' },
  },
};

const rewriteResponseSchema = {
  type: 'object',
  required: ['result_id', 'target_profile', 'scorer_version', 'changed', 'rewritten_text', 'note', 'before', 'after', 'edits', 'improvement', 'honesty', 'referral_code'],
  properties: {
    result_id: { type: 'string', format: 'uuid' },
    target_profile: { type: 'string' },
    scorer_version: { type: 'string' },
    changed: { type: 'boolean', description: 'False when no edit raised the EQ score: rewritten_text is then the original text.' },
    rewritten_text: { type: 'string' },
    note: { type: 'string', description: 'What happened, in one sentence (says so when the text is unchanged).' },
    before: { ...scoreSchema, description: "The original text's score against the profile." },
    after: { ...scoreSchema, description: "The rewritten text's score, by the same engine (never below before)." },
    edits: {
      type: 'array',
      description: 'Every kept edit, in text order. start/end: UTF-16 offsets in the original text; new_start/new_end: in the rewritten text.',
      items: {
        type: 'object',
        required: ['dial', 'reason', 'start', 'end', 'before', 'after', 'new_start', 'new_end'],
        properties: {
          dial: { enum: ['canned-phrases', 'length', 'contractions', 'register', 'hedges', 'directness', 'empathy'] },
          reason: { type: 'string' },
          start: { type: 'integer', minimum: 0 },
          end: { type: 'integer', minimum: 0 },
          before: { type: 'string' },
          after: { type: 'string' },
          new_start: { type: 'integer', minimum: 0 },
          new_end: { type: 'integer', minimum: 0 },
        },
      },
    },
    improvement: { type: 'string', description: 'One next step, from the after score.' },
    honesty: { type: 'string', description: 'The rewrite never makes the text claim to be human or deny being an AI.' },
    referral_code: { type: 'string', description: "This wallet's own referral code (section 8)." },
    reward_bundle_tokens: { type: 'array', items: { type: 'string' } },
    payment: { type: 'object', properties: { network: { type: 'string' }, asset: { type: 'string' }, amount: { type: 'string' }, transaction: { type: 'string' } } },
  },
};

/** OpenAPI specs of the rewrite routes. */
export const rewriteOperations: OperationSpec[] = [
  {
    method: 'post',
    path: product.path,
    operationId: 'postRewrite',
    summary: `Deterministic rewrite toward a profile (${pricePhrase(product)}) over x402.`,
    description:
      "Rewrites the reply toward the target profile's measured dials (canned phrases, length, contractions, register, " +
      'hedges, directness, warmth). Every edit is scored by the same engine on the whole text and kept only when the ' +
      "profile's EQ score goes up; when none does, the text comes back unchanged (changed: false) and the response says so. " +
      'The rewrite never makes the text claim to be human or deny being an AI. Without payment: 402 with the x402 ' +
      'requirements, quoted for wallet_address (the loyalty discount applies). Retry once with PAYMENT-SIGNATURE. A lost ' +
      `response is replayed with the same authorization (header ${REPLAY_HEADER}: true), never charged twice; the same ` +
      'authorization with another request is 409 payment_already_used. Validation errors (422) come before any payment.',
    tags: ['paid'],
    body: rewriteRequestSchema,
    headers: paidCallHeaders(product),
    responses: {
      '200': { description: 'The rewrite, with the receipt headers.', schema: rewriteResponseSchema, headers: RECEIPT_HEADERS },
      ...PAID_CALL_RESPONSES,
      '422': { description: 'validation_failed: every failing field with its JSON path (checked before any payment).', schema: errorBodySchema },
    },
  },
  {
    method: 'get',
    path: product.path,
    operationId: 'getRewriteQuote',
    summary: 'The payment challenge of a rewrite (quote only; never settles).',
    tags: ['paid'],
    responses: { '402': PAID_CALL_RESPONSES['402'] },
  },
];

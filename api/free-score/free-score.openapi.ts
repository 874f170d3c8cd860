import type { AppConfig } from '../../shared/config';
import { PRODUCTS } from '../../shared/products';
import type { OperationSpec } from '../http/openapi/operation';
import { COMMON_RESPONSES, TARGETS_SCHEMA, errorBodySchema } from '../http/responses.schema';
import { scoreRequestSchema } from './free-score.schema';

const freeScoreResponseSchema = {
  type: 'object',
  required: ['score', 'free_tier'],
  properties: {
    score: {
      type: 'object',
      required: ['scorer_version', 'human_likeness', 'measures', 'profile', 'eq_score', 'passed', 'signals'],
      properties: {
        scorer_version: { type: 'string' },
        human_likeness: { type: 'number', minimum: 0, maximum: 100 },
        measures: { type: 'object', additionalProperties: { type: 'number' } },
        profile: { type: ['string', 'null'] },
        eq_score: { type: ['number', 'null'], minimum: 0, maximum: 100 },
        passed: { type: ['boolean', 'null'] },
        dimensions: { type: ['object', 'null'] },
        targets: { oneOf: [TARGETS_SCHEMA, { type: 'null' }] },
        signals: { type: 'array', items: { type: 'object' } },
        suggested_prompt_addition: { type: ['string', 'null'] },
        improvement: { type: ['string', 'null'] },
        suggested_delay_seconds: { type: ['object', 'null'] },
      },
    },
    free_tier: {
      type: 'object',
      required: ['limit', 'used', 'remaining'],
      properties: {
        limit: { type: 'integer' },
        used: { type: 'integer' },
        remaining: { type: 'integer' },
        wishlist_required_before_score: { type: 'integer' },
        corpus: { type: 'string' },
      },
    },
  },
};

const upgradeErrorSchema = {
  type: 'object',
  required: ['error', 'upgrade'],
  properties: {
    error: errorBodySchema.properties.error,
    upgrade: {
      type: 'object',
      description: `Where the paid flow is: POST ${PRODUCTS.simulate.path} (basic, ${PRODUCTS.simulate.tiers.basic.price.usdcUnits} USDC units) paid with x402.`,
      required: ['paid_flow'],
      properties: {
        reason: { type: 'string' },
        paid_flow: {
          type: 'object',
          properties: {
            method: { const: 'POST' },
            endpoint: { const: '/api/simulate' },
            price_usdc_units: { type: 'integer' },
            price_lamports: { type: 'integer' },
            protocol: { const: 'x402' },
            network: { type: 'string' },
            asset: { type: 'string' },
            pay_to: { type: ['string', 'null'] },
          },
        },
        pricing: { type: 'string' },
      },
    },
  },
};

/**
 * OpenAPI specs of the free scoring routes; the prose takes the configured free-tier rules.
 * @param freeTier - the `freeTier` section of the config
 * @returns the operations
 */
export function scoreOperations(freeTier: AppConfig['freeTier']): OperationSpec[] {
  return [
    {
      method: 'post',
      path: '/api/score',
      operationId: 'postFreeScore',
      summary: `Free tier: score a reply (${freeTier.scoreLimit} lifetime scores per caller, never reset).`,
      description:
        'data_consent must be the boolean true (consented replies enter the free corpus). Before free score number ' +
        `${freeTier.wishlistRequiredFrom}, one wishlist item must have been submitted to POST /api/wishlist. A refused request (422, 403, 429, 503, 504) ` +
        'consumes no round. When the cap is used: 429 free_cap_reached with an `upgrade` block.',
      tags: ['free tier'],
      body: scoreRequestSchema,
      responses: {
        '200': { description: 'The score.', schema: freeScoreResponseSchema },
        '403': { description: 'wishlist_required: submit one wishlist item first; no round was consumed.', schema: errorBodySchema },
        '413': { description: 'payload_too_large: the body exceeds the size limit.', schema: errorBodySchema },
        '415': { description: 'unsupported_media_type: send application/json.', schema: errorBodySchema },
        '422': {
          description:
            'validation_failed, data_consent_required (data_consent missing or not true), invalid_json, unsupported_language (the reply is confidently not English; no round is used), or a scorer refusal; fields are listed with their JSON paths.',
          schema: COMMON_RESPONSES['422'].schema,
        },
        '429': { description: `free_cap_reached: the ${freeTier.scoreLimit} lifetime free scores are used.`, schema: upgradeErrorSchema },
        '503': { description: 'queue_unavailable or database_unavailable; nothing was consumed.', schema: errorBodySchema },
        '504': { description: 'job_timeout: the score did not finish in time; nothing was consumed.', schema: errorBodySchema },
      },
    },
    {
      method: 'post',
      path: '/api/train',
      operationId: 'postTrain',
      summary: 'Retired: always 410; use POST /api/simulate.',
      tags: ['retired'],
      responses: { '410': { description: 'gone, with the replacement in details.', schema: errorBodySchema } },
    },
  ];
}

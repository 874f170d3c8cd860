import {
  DELAY_SECONDS_SCHEMA,
  INCOMING_MESSAGE_SCHEMA,
  PROFILE_ID_SCHEMA,
  PROPOSED_TEXT_SCHEMA,
  TX_HASH_SCHEMA,
  WALLET_ADDRESS_SCHEMA,
} from '../http/fields.schema';
import type { BodyOf } from '../http/ajv';
import { PRODUCT_TERMS, PRODUCTS } from '../../shared/products';

/** A simulate tier. */
export type SimulateTier = 'basic' | 'deep';

const tiers = PRODUCTS.simulate.tiers;
// The catalog types tier ids as plain strings; these are its simulate tiers, named so the request's
// `tier` is typed by them.
const TIER_IDS = Object.keys(tiers) as SimulateTier[];

/** JSON schema of {@link SimulateRequest}; validates requests and is published in the OpenAPI document. */
export const simulateRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['wallet_address', 'proposed_text', 'response_delay_seconds', 'target_profile'],
  properties: {
    wallet_address: WALLET_ADDRESS_SCHEMA,
    proposed_text: {
      ...PROPOSED_TEXT_SCHEMA,
      description: `${PROPOSED_TEXT_SCHEMA.description} Never stored, unless shared for calibration and scored above ${PRODUCT_TERMS.calibrationThresholdPct}.`,
    },
    response_delay_seconds: DELAY_SECONDS_SCHEMA,
    target_profile: PROFILE_ID_SCHEMA,
    tier: {
      type: 'string',
      enum: TIER_IDS,
      default: PRODUCTS.simulate.defaultTier,
      description: TIER_IDS.map((id) => `${id} (${tiers[id].price.usdcUnits} USDC units)`).join(' or '),
    },
    share_for_calibration: {
      type: 'boolean',
      default: false,
      description: `Consent to keep the text for manual calibration review, only if it scores above ${PRODUCT_TERMS.calibrationThresholdPct}. No discount.`,
    },
    store_text_for_training: {
      type: 'boolean',
      default: false,
      description:
        "Opt in to keeping this reply's text with the session's ledger row, so POST /api/training-dataset exports it. " +
        'Default false: only the scores, the frozen persona targets and the measured dimensions are kept. Asked per paid ' +
        'request; consent given in the free tier never carries over.',
    },
    tx_hash: TX_HASH_SCHEMA,
    incoming_message: INCOMING_MESSAGE_SCHEMA,
  },
} as const;

/** Body of `POST /api/simulate`. */
export type SimulateRequest = BodyOf<typeof simulateRequestSchema>;

/** Query of `GET /api/simulate` (the quote). */
export const simulateQuoteQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { tier: { type: 'string', enum: TIER_IDS, default: PRODUCTS.simulate.defaultTier, description: 'Which tier to quote.' } },
} as const;

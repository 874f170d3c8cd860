import { AGENT_PLANS } from '../../../shared/catalog/agent-plans';
import { TX_HASH_SCHEMA, WALLET_ADDRESS_SCHEMA } from '../../http/fields.schema';
import type { BodyOf } from '../../http/ajv';

const WORKFLOW_ID = { type: 'string', format: 'uuid', description: 'The verified install the plan is for (its free install workflow id).' } as const;
const PLAN_ID = { type: 'string', enum: AGENT_PLANS.map((p) => p.id), description: 'A plan of GET /api/catalog/agent/catalog.' } as const;
const WALLET = { ...WALLET_ADDRESS_SCHEMA, description: 'The wallet that will pay the quote; it must be the payment signer.' } as const;

/** Body of POST /api/catalog/agent/quotes (a new plan). */
export const newQuoteSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['workflow_id', 'plan_id', 'wallet_address'],
  properties: { workflow_id: WORKFLOW_ID, plan_id: PLAN_ID, wallet_address: WALLET },
} as const;

/** Body of POST /api/catalog/agent/renewals (the current plan, one more period). */
export const renewalQuoteSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['workflow_id', 'wallet_address'],
  properties: { workflow_id: WORKFLOW_ID, wallet_address: WALLET },
} as const;

/** Body of POST /api/catalog/agent/upgrades (a larger plan for the rest of the period). */
export const upgradeQuoteSchema = newQuoteSchema;

/**
 * Arguments of the catalog-plan-quote agent tool: one of the three quote bodies, named by `kind`
 * (each is then checked against that kind's own body schema, as over HTTP).
 */
export const planQuoteToolSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['kind', 'workflow_id', 'wallet_address'],
  properties: {
    kind: { type: 'string', enum: ['new', 'renewal', 'upgrade'], description: 'new: a first plan (plan_id required); renewal: the current plan for one more period; upgrade: a larger plan (plan_id required).' },
    workflow_id: WORKFLOW_ID,
    plan_id: PLAN_ID,
    wallet_address: WALLET,
  },
} as const;

/** A quote request, as validated. */
// A new plan and an upgrade name the plan; a renewal takes the current one.
export type QuoteRequest = BodyOf<typeof renewalQuoteSchema> & { plan_id?: BodyOf<typeof newQuoteSchema>['plan_id'] };

/** Header of retry-activation (and of the payment): the payer's claim to the plan bundle's token. */
export const PLAN_CLAIM_HEADER = 'X-CATALOG-PLAN-CLAIM';

/** What the payer signs to claim the token (see payerClaimMessage): `humanlike: claim catalog plan token\nnonce: <nonce>`. */
export const PLAN_CLAIM_SUBJECT = 'catalog plan token';

/**
 * Body of POST /api/catalog/agent/payments/{quote_id}: none, or the legacy `tx_hash` (a finalized
 * SOL transfer from the quote's wallet) instead of a payment header. The quote says the rest.
 */
export const payQuoteSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { tx_hash: TX_HASH_SCHEMA },
} as const;

/** Body of retry-activation: none. */
export const retryActivationSchema = { type: 'object', additionalProperties: false, properties: {} } as const;

import { PRODUCTS } from '../../shared/products';
import type { OperationSpec } from '../http/openapi/operation';
import { COMMON_RESPONSES, errorBodySchema } from '../http/responses.schema';
import { BUNDLE_TOKEN_HEADER } from '../payments/bundle-credit/bundle-token';
import { PAID_CALL_RESPONSES, RECEIPT_HEADERS, paidCallHeaders } from '../payments/payment.openapi';
import { REPLAY_HEADER } from '../payments/quote';
import { planTerms } from './bundle-plans';
import { bundleQuoteQuerySchema, bundleRequestSchema, recoverRequestSchema } from './bundles.schema';
import { RECOVERY_WINDOW_SECONDS } from './recovery';

const bundle = planTerms('bundle');
const fleet = planTerms('fleet');

const referralMemberSchema = {
  type: 'object',
  required: ['code', 'status'],
  description: 'Present when referral_code was sent: applied (bound at settlement), or ignored with a reason (the purchase proceeds).',
  properties: {
    code: { type: 'string' },
    status: { enum: ['pending', 'applied', 'ignored'] },
    reason: { enum: ['already_referred', 'not_new_wallet', 'not_applied'] },
    note: { type: 'string' },
  },
};

const rewardBundlesSchema = {
  type: 'array',
  description: 'Reward bundles delivered with this payment (ids and credits; not secret). Recover a lost token with POST /api/bundle/recover.',
  items: { type: 'object', required: ['bundle_id', 'credits'], properties: { bundle_id: { type: 'string', format: 'uuid' }, credits: { type: 'integer' } } },
};

const purchaseResponseSchema = {
  type: 'object',
  required: ['bundle_id', 'bundle_token', 'plan', 'credits', 'credits_remaining', 'wallet', 'referral_code', 'reward_bundle_tokens', 'result_id', 'payment'],
  properties: {
    bundle_id: { type: 'string', format: 'uuid' },
    bundle_token: {
      type: ['string', 'null'],
      description: 'The secret token (hlb_...), in the first delivery only; null in a replay (then see token_note and recover it).',
    },
    token_note: { type: 'string' },
    plan: { enum: Object.keys(PRODUCTS.bundle.tiers) },
    credits: { type: 'integer' },
    credits_remaining: { type: 'integer' },
    wallet: { type: 'string', description: 'The owning wallet, masked (first 6 and last 4 characters).' },
    referral_code: { type: 'string', description: "This wallet's own referral code." },
    referral: referralMemberSchema,
    reward_bundle_tokens: { type: 'array', items: { type: 'string' }, description: 'Referral rewards due to this wallet, as bundle tokens; first delivery only.' },
    reward_bundles: rewardBundlesSchema,
    result_id: { type: 'string', format: 'uuid' },
    payment: { type: 'object' },
  },
};

const cardStateSchema = {
  type: 'object',
  required: ['pending_purchases', 'renewals'],
  description: 'Present for a bundle bought or topped up by card (POST /api/card/checkout).',
  properties: {
    pending_purchases: {
      type: 'array',
      description: 'Card purchases whose payment has not settled yet: their credits are not in credits_remaining until it does.',
      items: {
        type: 'object',
        required: ['purchase_id', 'pack', 'credits', 'amount_cents', 'currency', 'auto_refill', 'status', 'created_at'],
        properties: {
          purchase_id: { type: 'string', format: 'uuid' },
          pack: { type: 'string' },
          credits: { type: 'integer' },
          amount_cents: { type: 'integer' },
          currency: { type: 'string' },
          auto_refill: { type: 'boolean' },
          status: { const: 'pending' },
          created_at: { type: 'string', format: 'date-time' },
        },
      },
    },
    renewals: {
      type: 'array',
      description: 'Monthly renewals (auto_refill: true), active or cancelled.',
      items: {
        type: 'object',
        required: ['renewal_id', 'pack', 'credits', 'amount_cents', 'currency', 'interval', 'status', 'next_charge_at', 'renewals_attempted', 'last_charge', 'cancelled_at'],
        properties: {
          renewal_id: { type: 'string', format: 'uuid' },
          pack: { type: 'string' },
          credits: { type: 'integer', description: 'Granted per settled renewal.' },
          amount_cents: { type: 'integer' },
          currency: { type: 'string' },
          interval: { const: 'month' },
          status: { enum: ['active', 'cancelled'] },
          next_charge_at: { type: ['string', 'null'], format: 'date-time', description: 'null once cancelled.' },
          renewals_attempted: { type: 'integer', description: 'Months charged so far (each once; a failed one is not retried).' },
          last_charge: {
            type: ['object', 'null'],
            properties: { period: { type: 'integer' }, status: { enum: ['attempting', 'succeeded', 'failed'] }, at: { type: 'string', format: 'date-time' } },
          },
          cancelled_at: { type: ['string', 'null'], format: 'date-time' },
        },
      },
    },
  },
};

const balanceSchema = {
  type: 'object',
  required: ['bundle_id', 'plan', 'credits_total', 'credits_remaining', 'wallet', 'created_at'],
  properties: {
    bundle_id: { type: 'string', format: 'uuid' },
    plan: { enum: ['bundle', 'fleet', 'referral-reward', 'card'] },
    credits_total: { type: 'integer' },
    credits_remaining: { type: 'integer', minimum: 0 },
    wallet: {
      type: ['string', 'null'],
      description: 'The owning wallet, masked; redemptions must send it in full as wallet_address. null for a card bundle: its token alone spends it.',
    },
    created_at: { type: 'string', format: 'date-time' },
    card: cardStateSchema,
  },
};

const TOKEN_HEADER_SPEC = { name: BUNDLE_TOKEN_HEADER, description: 'The bundle token (hlb_...).', schema: { type: 'string' }, required: true };

const TOKEN_ERRORS = {
  '401': {
    description: `bundle_token_required (no ${BUNDLE_TOKEN_HEADER}) or invalid_bundle_token (unknown, or replaced by a recovery).`,
    schema: errorBodySchema,
  },
};

/** OpenAPI specs of the bundle routes. */
export const bundleOperations: OperationSpec[] = [
  {
    method: 'post',
    path: '/api/bundle',
    operationId: 'postBundle',
    summary: `Prepaid bundle of basic credits over x402: bundle (${bundle.credits} credits, ${bundle.price.usdcUnits} USDC units) or fleet (${fleet.credits} credits, ${fleet.price.usdcUnits}).`,
    description:
      'Posting only the plan (no wallet_address) answers the 402 quote; so does a wallet with no payment. Validation and the ' +
      'referral_code rules (422 invalid_referral_code, self_referral, circular_referral) come before any payment. Paid: the ' +
      'ledger records product bundle, tier = plan; the credits belong to the paying wallet and redeem one basic session each ' +
      `(${BUNDLE_TOKEN_HEADER} on POST /api/simulate). The purchase is the settled ledger row (the live feed shows it as a ` +
      '"Bundle purchase"); a session paid with a credit answers its buyer in full but is no settled ledger row, so it appears ' +
      'in no leaderboard, scoreboard, statistic, live feed, progress report, training dataset or duel fee. ' +
      'The secret bundle_token is shown once, in the first delivery after ' +
      'settlement, and stored only as a SHA-256 hash. A settled payment is public on chain, so anyone could rebuild the ' +
      `request: a replay (${REPLAY_HEADER}: true, also after a settlement that needed a retry) answers bundle_token: null; ` +
      'recover a new token with POST /api/bundle/recover. A referral_code counts on a new wallet\'s first settled purchase; ' +
      'for a wallet that already has a referrer or has settled a purchase, it is ignored (referral.status = ignored) and the purchase proceeds.',
    tags: ['paid'],
    body: bundleRequestSchema,
    headers: paidCallHeaders(PRODUCTS.bundle),
    responses: {
      '200': { description: 'The bundle, with the receipt headers.', schema: purchaseResponseSchema, headers: RECEIPT_HEADERS },
      ...PAID_CALL_RESPONSES,
      '422': {
        description: 'validation_failed (every failing field), invalid_referral_code, self_referral or circular_referral. Checked before any payment.',
        schema: errorBodySchema,
      },
    },
  },
  {
    method: 'get',
    path: '/api/bundle',
    operationId: 'getBundleQuote',
    summary: 'The payment challenge of a bundle purchase (quote only; never settles).',
    tags: ['paid'],
    query: bundleQuoteQuerySchema,
    responses: { '402': PAID_CALL_RESPONSES['402'] },
  },
  {
    method: 'get',
    path: '/api/bundle/balance',
    operationId: 'getBundleBalance',
    summary: 'The credits of the bundle whose token is sent in X-BUNDLE-TOKEN.',
    tags: ['bundle'],
    headers: [TOKEN_HEADER_SPEC],
    responses: { '200': { description: 'The bundle.', schema: balanceSchema }, ...TOKEN_ERRORS, '500': COMMON_RESPONSES['500'] },
  },
  {
    method: 'post',
    path: '/api/bundle/recover',
    operationId: 'postBundleRecover',
    summary: 'A new token for a bundle, for the wallet that owns it (the old token stops working).',
    description:
      'Sign this exact message (three lines joined by \\n, no trailing newline; bundle id in lowercase, timestamp in Unix ' +
      'seconds): "humanlike: recover bundle token\\nbundle_id: <bundle_id>\\ntimestamp: <timestamp>". EVM wallets sign it ' +
      'with EIP-191 personal_sign (a smart wallet signs as its ERC-1271 isValidSignature accepts, checked on chain when ' +
      'the server has EVM_RPC_URL, else answered 401 invalid_signature); Solana wallets sign ' +
      `its UTF-8 bytes with ed25519. The timestamp must be within ${RECOVERY_WINDOW_SECONDS} s of the server clock, and ` +
      'each signature recovers once (a later recovery needs a later timestamp). The new token is shown once and stored as a hash.',
    tags: ['bundle'],
    body: recoverRequestSchema,
    responses: {
      '200': {
        description: 'The new token, shown once.',
        schema: { ...balanceSchema, required: [...balanceSchema.required, 'bundle_token'], properties: { ...balanceSchema.properties, bundle_token: { type: 'string' }, token_note: { type: 'string' } } },
      },
      '401': {
        description: 'signature_expired (timestamp outside the window), invalid_signature (not the owner\'s signature of the message; details.message is the text to sign), or signature_reused.',
        schema: errorBodySchema,
      },
      '404': { description: 'bundle_not_found: no bundle with this id belongs to this wallet.', schema: errorBodySchema },
      '409': { description: 'bundle_not_settled: the purchase has not settled; retry it with the same authorization first.', schema: errorBodySchema },
      '503': { description: "evm_rpc_unavailable: a smart wallet's signature needs the chain, which cannot be read now; retry.", schema: errorBodySchema },
      ...COMMON_RESPONSES,
    },
  },
];

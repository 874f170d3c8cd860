import type { OperationSpec } from '../http/openapi/operation';
import { COMMON_RESPONSES, errorBodySchema } from '../http/responses.schema';

const statusSchema = {
  type: 'object',
  required: ['code', 'referred_wallets', 'qualifying_purchases', 'credits_earned', 'credits_delivered', 'credits_pending'],
  properties: {
    code: { type: 'string' },
    referred_wallets: { type: 'integer', description: 'How many wallets this code referred (a count; never the wallets).' },
    qualifying_purchases: { type: 'integer', description: 'Settled paid purchases of those wallets since their referral (the referral purchase included).' },
    credits_earned: { type: 'integer', description: 'Basic credits worth 50 percent of that spend, each currency at its basic price; remainders carry forward.' },
    credits_delivered: { type: 'integer', description: "Credits already delivered as reward bundle tokens in the owner's paid responses." },
    credits_pending: { type: 'integer', description: "Credits delivered with the owner's next paid response." },
  },
};

/** OpenAPI specs of the referral routes. */
export const referralOperations: OperationSpec[] = [
  {
    method: 'get',
    path: '/api/referral/status/{code}',
    operationId: 'getReferralStatus',
    summary: 'Public, non-sensitive statistics of a referral code (never tokens or wallet addresses).',
    description:
      "A wallet gets its code in every paid response (referral_code). A new wallet puts a referrer's code on its first paid " +
      'purchase (POST /api/bundle); the referrer earns basic credits worth 50 percent of everything that wallet spends from then ' +
      '(every settled paid purchase, USDC and SOL each at its basic price, remainders carried forward), delivered as a reward ' +
      "bundle token in the referrer's next paid response (first delivery only). One referrer per wallet; no self or circular " +
      'referrals. Bundle redemptions are not purchases and earn nothing.',
    tags: ['public'],
    responses: {
      '200': { description: 'The statistics.', schema: statusSchema },
      '404': { description: 'referral_code_not_found: no wallet has this code.', schema: errorBodySchema },
      '500': COMMON_RESPONSES['500'],
    },
  },
];

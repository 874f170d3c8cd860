import Router from '@koa/router';
import { scoreThroughQueue, type JobIdentity } from '../../jobs';
import { canonicalHash } from '../../shared/payments/canonical-hash';
import { PRICES, PRODUCT_TERMS } from '../../shared/pricing';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import { validateBody, validateQuery } from '../http/validate';
import type { OperationSpec } from '../http/openapi/operation';
import type { Charge } from '../payments/charge';
import { MAX_IDEMPOTENCY_KEY_CHARS } from '../payments/idempotency';
import { REPLAY_HEADER, runPaidCall, sendQuote } from '../payments/paid-call';
import { PAID_CALL_HEADERS, PAID_CALL_RESPONSES, RECEIPT_HEADERS } from '../payments/payment.openapi';
import { referralCodeFor } from '../payments/referral-code';
import { presentSession } from './present-session';
import { simulateRequestSchema, type SimulateRequest } from './simulate.schema';
import { AppError } from '../../shared/errors';
import { BUNDLE_TOKEN_HEADER } from '../payments/bundle-credit/bundle-token';
import { runBundleRedemption } from '../payments/bundle-credit/redeem-credit';
import { rewardDeliveryExtras } from '../payments/reward-delivery';
import { errorBodySchema } from '../http/responses.schema';

type Tier = 'basic' | 'deep';

/**
 * The charge of a simulate session.
 * @param tier - basic or deep
 * @returns product, tier, price, description
 */
export function simulateCharge(tier: Tier): Charge {
  return tier === 'deep'
    ? { product: 'simulate', tier, price: PRICES.simulateDeep, description: 'Deep scoring session: diagnostics, machine-like signals with evidence, rewrite guidance.' }
    : { product: 'simulate', tier, price: PRICES.simulateBasic, description: 'Basic scoring session: score, suggested prompt addition, improvement hint.' };
}

const quoteQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { tier: { type: 'string', enum: ['basic', 'deep'], default: 'basic', description: 'Which tier to quote.' } },
} as const;

const sessionResponseSchema = {
  type: 'object',
  required: ['result_id', 'tier', 'target_profile', 'score', 'improvement', 'referral_code', 'reward_bundle_tokens'],
  properties: {
    result_id: { type: 'string', format: 'uuid' },
    tier: { enum: ['basic', 'deep'] },
    target_profile: { type: 'string' },
    score: {
      type: 'object',
      required: ['scorer_version', 'eq_score', 'passed', 'human_likeness', 'suggested_prompt_addition'],
      properties: {
        scorer_version: { type: 'string' },
        eq_score: { type: 'number', minimum: 0, maximum: 100 },
        passed: { type: 'boolean' },
        human_likeness: { type: 'number', minimum: 0, maximum: 100 },
        suggested_prompt_addition: { type: 'string', description: "Text to add to the agent's system prompt." },
        suggested_delay_seconds: { type: ['object', 'null'] },
      },
    },
    improvement: { type: 'string', description: 'One next step.' },
    referral_code: { type: 'string', description: "This wallet's own referral code (section 8)." },
    reward_bundle_tokens: {
      type: 'array',
      items: { type: 'string' },
      description: 'Referral rewards due to this wallet, as bundle tokens: in the first delivery of a paid session only (never in a replay or a bundle redemption).',
    },
    reward_bundles: {
      type: 'array',
      description: 'Paid sessions: the reward bundles delivered with this payment (ids and credits, not secret); recover a lost token with POST /api/bundle/recover.',
      items: { type: 'object', properties: { bundle_id: { type: 'string', format: 'uuid' }, credits: { type: 'integer' } } },
    },
    calibration: { type: 'object' },
    diagnostics: { type: 'object', description: 'Deep only: per dimension measured, target, delta, fit and contributions.' },
    signals: { type: 'array', items: { type: 'object' }, description: 'Deep only: machine-like signals with evidence spans.' },
    rewrite_guidance: { type: 'array', items: { type: 'object' }, description: 'Deep only: prioritized rewrite steps.' },
    payment: {
      type: 'object',
      description: 'Paid sessions: the settled payment.',
      properties: { network: { type: 'string' }, asset: { type: 'string' }, amount: { type: 'string' }, transaction: { type: 'string' } },
    },
    redemption: {
      type: 'object',
      description: 'X-BUNDLE-TOKEN sessions (instead of payment): the bundle and its credits left after this one.',
      properties: { bundle_id: { type: 'string', format: 'uuid' }, credits_spent: { const: 1 }, credits_remaining: { type: 'integer', minimum: 0 } },
    },
  },
};

const BUNDLE_TOKEN_HEADER_SPEC = {
  name: BUNDLE_TOKEN_HEADER,
  description: 'A prepaid bundle token (basic tier only): redeems one credit instead of a payment; wallet_address must own the bundle.',
  schema: { type: 'string' },
} as const;

/** OpenAPI specs of the simulate routes. */
export const simulateOperations: OperationSpec[] = [
  {
    method: 'post',
    path: '/api/simulate',
    operationId: 'postSimulate',
    summary: 'Paid scoring session (basic 50000 / deep 180000 USDC units) over x402.',
    description:
      'Without payment: 402 with the x402 requirements (body and PAYMENT-REQUIRED header). Sign the first accepts entry ' +
      '(EIP-3009 TransferWithAuthorization) and retry the same request once with PAYMENT-SIGNATURE. The authorization is ' +
      'reserved before any work; it is settled only after the result exists. A lost response is replayed by retrying the ' +
      'same request with the same authorization (header ' + REPLAY_HEADER + ': true), never charged twice; the same ' +
      'authorization with another request is 409 payment_already_used. Validation errors (422) come before any payment. ' +
      'Prepaid: with ' + BUNDLE_TOKEN_HEADER + ' and no payment header, a basic session spends one credit of the bundle ' +
      '(taken atomically, never below zero; given back if scoring fails); wallet_address must be the wallet that bought the ' +
      'bundle. Deep is refused before anything is spent (422 bundle_basic_only); no credit left answers the normal 402 ' +
      'challenge with error bundle_exhausted (pay per call instead). With Idempotency-Key, the same request replays the ' +
      'stored result (' + REPLAY_HEADER + ': true) without a second credit. A redemption is not a ledger settlement (the ' +
      'bundle purchase was): it has no receipt headers, no live-feed event, and carries redemption instead of payment.',
    tags: ['paid'],
    body: simulateRequestSchema,
    headers: [...PAID_CALL_HEADERS, BUNDLE_TOKEN_HEADER_SPEC],
    responses: {
      '200': { description: 'The session result, with the receipt headers (paid) or the redemption (bundle).', schema: sessionResponseSchema, headers: RECEIPT_HEADERS },
      ...PAID_CALL_RESPONSES,
      '400': {
        description: 'invalid_payment_header or ambiguous_payment: a payment header that cannot be read, or a payment together with X-BUNDLE-TOKEN. Nothing was charged.',
        schema: errorBodySchema,
      },
      '401': { description: 'invalid_bundle_token: the X-BUNDLE-TOKEN matches no bundle (unknown, or replaced by a recovery).', schema: errorBodySchema },
      '403': { description: 'bundle_wallet_mismatch: wallet_address is not the wallet that owns the bundle.', schema: errorBodySchema },
      '422': {
        description: 'validation_failed: every failing field with its JSON path (checked before any payment); bundle_basic_only: X-BUNDLE-TOKEN with tier deep.',
        schema: errorBodySchema,
      },
    },
  },
  {
    method: 'get',
    path: '/api/simulate',
    operationId: 'getSimulateQuote',
    summary: 'The payment challenge of a simulate session (quote only; never settles).',
    tags: ['paid'],
    query: quoteQuerySchema,
    responses: { '402': PAID_CALL_RESPONSES['402'] },
  },
];

/**
 * The paid simulate routes.
 * @param deps - app dependencies
 * @returns the router
 */
export function simulateRoutes(deps: AppDeps): Router<AppState> {
  const router = new Router<AppState>();
  const { config, dataSource } = deps;

  router.get('/api/simulate', validateQuery(quoteQuerySchema), async (ctx: AppContext) => {
    const { tier } = ctx.state.query as { tier: Tier };
    sendQuote(ctx, deps, simulateCharge(tier));
  });

  router.post('/api/simulate', validateBody(simulateRequestSchema), async (ctx: AppContext) => {
    const body = ctx.state.body as SimulateRequest;
    const request = { ...body, tier: body.tier ?? 'basic', share_for_calibration: body.share_for_calibration ?? false };
    const idempotencyKey = ctx.get('idempotency-key') || undefined;
    if (idempotencyKey !== undefined && idempotencyKey.length > MAX_IDEMPOTENCY_KEY_CHARS) {
      throw new AppError(422, 'validation_failed', 'The request is not valid; see details.fields.', {
        details: { fields: [{ path: 'header:Idempotency-Key', rule: 'maxLength', message: `must be at most ${MAX_IDEMPOTENCY_KEY_CHARS} characters` }] },
      });
    }
    const charge = simulateCharge(request.tier);
    const requestHash = canonicalHash({ path: ctx.path, body: request });

    // One scoring job per identity (the payment, or the bundle redemption), so a retry never scores twice.
    const scoreSession = async (identity: JobIdentity) => {
      const { score } = await scoreThroughQueue(
        deps.scoringQueue,
        deps.scoringEvents,
        {
          text: request.proposed_text,
          delaySeconds: request.response_delay_seconds,
          incoming: request.incoming_message,
          profile: request.target_profile,
          deep: request.tier === 'deep',
          reqId: ctx.state.reqId,
        },
        identity,
        config.jobs,
      );
      const verdict = score.result;
      if (!verdict) throw new Error('the scorer returned no verdict for the target profile');
      return { score, verdict, eligible: verdict.eq_score > PRODUCT_TERMS.calibrationThresholdPct };
    };

    const bundleToken = ctx.get(BUNDLE_TOKEN_HEADER);
    if (bundleToken) {
      if (ctx.get('payment-signature') || ctx.get('x-payment') || body.tx_hash !== undefined) {
        throw new AppError(400, 'ambiguous_payment', `Send one way to pay: ${BUNDLE_TOKEN_HEADER} or a payment, not both.`);
      }
      if (request.tier !== 'basic') {
        throw new AppError(422, 'bundle_basic_only', `${BUNDLE_TOKEN_HEADER} pays for the basic tier only; pay per call for a deep session (nothing was spent).`, {
          details: { fields: [{ path: '/tier', rule: 'bundle_basic_only', message: 'must be basic with a bundle token' }] },
        });
      }
      return runBundleRedemption(
        ctx,
        deps,
        { tokenHeader: bundleToken, wallet: request.wallet_address, requestHash, idempotencyKey, charge },
        async (redemption, bundle) => {
          const { score, verdict, eligible } = await scoreSession({ kind: 'idempotency-key', key: `bundle-redemption/${redemption.id}` });
          const response = presentSession(score, {
            resultId: redemption.resultId,
            tier: 'basic',
            referralCode: await referralCodeFor(dataSource, bundle.wallet),
            // Rewards arrive in paid responses only; a redemption's stored body must hold no secret.
            rewardBundleTokens: [],
            calibration: { requested: request.share_for_calibration, eligible },
          });
          response.redemption = { bundle_id: bundle.id, credits_spent: 1, credits_remaining: redemption.creditsRemaining };
          const calibration =
            request.share_for_calibration && eligible
              ? { profile: verdict.profile, score: verdict.eq_score, text: request.proposed_text, scorerVersion: score.scorer_version }
              : null;
          return { response, calibration };
        },
      );
    }

    await runPaidCall(
      ctx,
      deps,
      {
        charge,
        wallet: request.wallet_address,
        requestHash,
        idempotencyKey,
        legacyBody: body,
        onDelivery: (authorization, delivery) => rewardDeliveryExtras(dataSource, authorization, delivery),
      },
      async (authorization) => {
        const { score, verdict, eligible } = await scoreSession({ kind: 'payment', authorization: authorization.id });
        const response = presentSession(score, {
          resultId: authorization.resultId,
          tier: request.tier,
          referralCode: await referralCodeFor(dataSource, authorization.payer),
          rewardBundleTokens: [],
          calibration: { requested: request.share_for_calibration, eligible },
        });
        return {
          response,
          summary: { profile: verdict.profile, score: verdict.eq_score, passed: verdict.passed, scorerVersion: score.scorer_version },
          calibrationText: request.share_for_calibration && eligible ? request.proposed_text : null,
        };
      },
    );
  });

  return router;
}

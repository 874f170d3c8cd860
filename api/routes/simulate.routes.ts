import Router from '@koa/router';
import { awaitResult, enqueueScoreText } from '../../jobs';
import { canonicalHash } from '../../shared/payments/canonical-hash';
import { PRICES, PRODUCT_TERMS } from '../../shared/pricing';
import type { AppContext, AppState } from '../context';
import type { AppDeps } from '../deps';
import { validateBody, validateQuery } from '../middleware/validate';
import type { OperationSpec } from '../openapi/operation';
import type { Charge } from '../payments/charge';
import { MAX_IDEMPOTENCY_KEY_CHARS } from '../payments/idempotency';
import { REPLAY_HEADER, runPaidCall, sendQuote } from '../payments/paid-call';
import { PAID_CALL_HEADERS, PAID_CALL_RESPONSES, RECEIPT_HEADERS } from '../payments/paid-call-openapi';
import { referralCodeFor } from '../payments/referral-code';
import { presentSession } from '../simulate/present-session';
import { simulateRequestSchema, type SimulateRequest } from '../schemas/simulate-request.schema';
import { AppError } from '../../shared/errors';

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
  required: ['result_id', 'tier', 'target_profile', 'score', 'improvement', 'referral_code', 'reward_bundle_tokens', 'payment'],
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
    reward_bundle_tokens: { type: 'array', items: { type: 'string' }, description: 'Referral rewards due to this wallet, shown once.' },
    calibration: { type: 'object' },
    diagnostics: { type: 'object', description: 'Deep only: per dimension measured, target, delta, fit and contributions.' },
    signals: { type: 'array', items: { type: 'object' }, description: 'Deep only: machine-like signals with evidence spans.' },
    rewrite_guidance: { type: 'array', items: { type: 'object' }, description: 'Deep only: prioritized rewrite steps.' },
    payment: {
      type: 'object',
      properties: { network: { type: 'string' }, asset: { type: 'string' }, amount: { type: 'string' }, transaction: { type: 'string' } },
    },
  },
};

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
      'authorization with another request is 409 payment_already_used. Validation errors (422) come before any payment.',
    tags: ['paid'],
    body: simulateRequestSchema,
    headers: PAID_CALL_HEADERS,
    responses: {
      '200': { description: 'The session result, with the receipt headers.', schema: sessionResponseSchema, headers: RECEIPT_HEADERS },
      ...PAID_CALL_RESPONSES,
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
    await runPaidCall(
      ctx,
      deps,
      { charge, wallet: request.wallet_address, requestHash: canonicalHash({ path: ctx.path, body: request }), idempotencyKey, legacyBody: body },
      async (authorization) => {
        const job = await enqueueScoreText(
          deps.scoringQueue,
          {
            text: request.proposed_text,
            delaySeconds: request.response_delay_seconds,
            incoming: request.incoming_message,
            profile: request.target_profile,
            deep: request.tier === 'deep',
            reqId: ctx.state.reqId,
          },
          { kind: 'payment', authorization: authorization.id },
          config.jobs.enqueueTimeoutMs,
        );
        const { score } = await awaitResult(job, deps.scoringEvents, config.jobs.waitTimeoutMs);
        const verdict = score.result;
        if (!verdict) throw new Error('the scorer returned no verdict for the target profile');
        const eligible = verdict.eq_score > PRODUCT_TERMS.calibrationThresholdPct;
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

import Router from '@koa/router';
import { AppError, ValidationError } from '../../shared/errors';
import { canonicalHash } from '../../shared/payments/canonical-hash';
import { PRODUCT_TERMS } from '../../shared/pricing';
import { bundleCharge, planTerms, type PurchasePlan } from './bundle-plans';
import { createPurchaseBundle, findBundleByTokenHash, getBundle, mintPurchaseToken, replaceBundleToken } from '../payments/bundle-credit/bundle-store';
import { BUNDLE_TOKEN_HEADER, bundleTokenHashFrom, invalidBundleToken } from '../payments/bundle-credit/bundle-token';
import { TOKEN_SHOWN_NOTE, presentBalance, presentPurchase } from './present-bundle';
import { RECOVERY_WINDOW_SECONDS, isOwnerSignature, recoveryMessage } from './recovery';
import { walletKey } from '../payments/bundle-credit/wallet-key';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import { validateBody, validateQuery } from '../http/validate';
import type { OperationSpec } from '../http/openapi/operation';
import { REPLAY_HEADER, runPaidCall, sendQuote, type DeliveryExtras } from '../payments/paid-call';
import { PAID_CALL_HEADERS, PAID_CALL_RESPONSES, RECEIPT_HEADERS } from '../payments/payment.openapi';
import { referralCodeFor } from '../payments/referral-code';
import { checkReferralCode, normalizeReferralCode, referralAfterSettlement, referralBeforeSettlement } from '../payments/referral-check';
import { rewardDeliveryExtras } from '../payments/reward-delivery';
import { COMMON_RESPONSES, errorBodySchema } from '../http/responses.schema';
import { TX_HASH_SCHEMA, WALLET_ADDRESS_SCHEMA } from '../simulate/simulate.schema';

/** Body of `POST /api/bundle`. */
interface BundleRequest {
  wallet_address?: string;
  plan?: PurchasePlan;
  referral_code?: string;
  tx_hash?: string;
}

/** Body of `POST /api/bundle/recover`. */
interface RecoverRequest {
  bundle_id: string;
  wallet_address: string;
  timestamp: number;
  signature: string;
}

const bundle = planTerms('bundle');
const fleet = planTerms('fleet');

const PLAN_SCHEMA = {
  type: 'string',
  enum: ['bundle', 'fleet'],
  default: 'bundle',
  description:
    `bundle: ${bundle.credits} basic credits for ${bundle.price.usdcUnits} USDC units (${bundle.price.lamports} lamports). ` +
    `fleet: ${fleet.credits} basic credits (the fleet card pack's terms) under one token for a fleet of agents of the paying wallet, ` +
    `for ${fleet.price.usdcUnits} USDC units (${fleet.price.lamports} lamports): the same per-credit rate.`,
} as const;

/** JSON schema of {@link BundleRequest}. */
export const bundleRequestSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    wallet_address: { ...WALLET_ADDRESS_SCHEMA, description: 'The paying wallet (the payment signer), which owns the credits. Leave it out for a no-wallet quote.' },
    plan: PLAN_SCHEMA,
    referral_code: {
      type: 'string',
      maxLength: 32,
      default: '',
      description: "A referrer's code (HL-XXXXXXXX), on a new wallet's first paid purchase only. Checked before payment.",
    },
    tx_hash: TX_HASH_SCHEMA,
  },
} as const;

/** JSON schema of {@link RecoverRequest}. */
export const recoverRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['bundle_id', 'wallet_address', 'timestamp', 'signature'],
  properties: {
    bundle_id: { type: 'string', format: 'uuid', description: 'The bundle (bundle_id of the purchase, or of a reward bundle).' },
    wallet_address: { ...WALLET_ADDRESS_SCHEMA, description: 'The wallet that owns the bundle.' },
    timestamp: {
      type: 'integer',
      minimum: 0,
      maximum: 99_999_999_999,
      description: `Unix seconds of the signed message; within ${RECOVERY_WINDOW_SECONDS} s of the server clock and later than any earlier recovery of this bundle.`,
    },
    signature: {
      type: 'string',
      // 65 bytes from a key; a smart wallet's may be longer (ERC-6492 wraps a deployment).
      pattern: '^(0x[0-9a-fA-F]{130,16384}|[1-9A-HJ-NP-Za-km-z]{64,90})$',
      description:
        "EVM: the EIP-191 personal_sign signature, 0x-hex (65 bytes for a key; a smart wallet's signature is checked on chain with ERC-1271/6492 when the server has an EVM_RPC_URL). Solana: the ed25519 signature of the UTF-8 message, base58.",
    },
  },
} as const;

const quoteQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { plan: { ...PLAN_SCHEMA, description: 'Which plan to quote.' } },
} as const;

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
    plan: { enum: ['bundle', 'fleet'] },
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

const balanceSchema = {
  type: 'object',
  required: ['bundle_id', 'plan', 'credits_total', 'credits_remaining', 'wallet', 'created_at'],
  properties: {
    bundle_id: { type: 'string', format: 'uuid' },
    plan: { enum: ['bundle', 'fleet', 'referral-reward'] },
    credits_total: { type: 'integer' },
    credits_remaining: { type: 'integer', minimum: 0 },
    wallet: { type: 'string', description: 'The owning wallet, masked; redemptions must send it in full as wallet_address.' },
    created_at: { type: 'string', format: 'date-time' },
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
      `(${BUNDLE_TOKEN_HEADER} on POST /api/simulate). The secret bundle_token is shown once, in the first delivery after ` +
      'settlement, and stored only as a SHA-256 hash. A settled payment is public on chain, so anyone could rebuild the ' +
      `request: a replay (${REPLAY_HEADER}: true, also after a settlement that needed a retry) answers bundle_token: null; ` +
      'recover a new token with POST /api/bundle/recover. A referral_code counts on a new wallet\'s first settled purchase; ' +
      'for a wallet that already has a referrer or has settled a purchase, it is ignored (referral.status = ignored) and the purchase proceeds.',
    tags: ['paid'],
    body: bundleRequestSchema,
    headers: PAID_CALL_HEADERS.filter((h) => h.name !== 'Idempotency-Key'),
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
    query: quoteQuerySchema,
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

/**
 * The bundle routes: purchase (paid), quote, balance and token recovery.
 * @param deps - app dependencies
 * @returns the router
 */
export function bundleRoutes(deps: AppDeps): Router<AppState> {
  const router = new Router<AppState>();
  const { dataSource } = deps;

  router.get('/api/bundle', validateQuery(quoteQuerySchema), async (ctx: AppContext) => {
    const { plan } = ctx.state.query as { plan: PurchasePlan };
    sendQuote(ctx, deps, bundleCharge(plan));
  });

  router.post('/api/bundle', validateBody(bundleRequestSchema), async (ctx: AppContext) => {
    const body = ctx.state.body as BundleRequest;
    const plan = body.plan ?? 'bundle';
    const charge = bundleCharge(plan);
    if (body.wallet_address === undefined) {
      const paying = Boolean(ctx.get('payment-signature') || ctx.get('x-payment') || body.tx_hash !== undefined);
      if (paying) throw new ValidationError([{ path: '/wallet_address', rule: 'required', message: 'is required to pay: it must be the payment signer' }]);
      return sendQuote(ctx, deps, charge);
    }
    const code = normalizeReferralCode(body.referral_code ?? '');
    const intent = code ? await checkReferralCode(dataSource, walletKey(body.wallet_address), code) : undefined;
    const request = { ...body, plan, referral_code: code };

    const onDelivery: DeliveryExtras = async (authorization, delivery) => {
      const extras: Record<string, unknown> = {};
      if (delivery.first) {
        const minted = await mintPurchaseToken(dataSource, authorization.id);
        if (minted) Object.assign(extras, { bundle_token: minted.token, token_note: TOKEN_SHOWN_NOTE });
      }
      try {
        Object.assign(extras, await rewardDeliveryExtras(dataSource, authorization, delivery));
        const stored = (authorization.response as { referral?: Record<string, unknown> } | null)?.referral;
        if (stored) extras.referral = await referralAfterSettlement(dataSource, authorization.id, stored);
      } catch (err) {
        // The minted token must still reach the buyer; rewards stay pending or recoverable.
        ctx.state.log.error({ err }, 'referral delivery failed');
      }
      return extras;
    };

    await runPaidCall(
      ctx,
      deps,
      { charge, wallet: body.wallet_address, requestHash: canonicalHash({ path: ctx.path, body: request }), legacyBody: body, onDelivery },
      async (authorization) => {
        const created = await createPurchaseBundle(dataSource, {
          wallet: authorization.payer,
          plan,
          credits: planTerms(plan).credits,
          authorizationId: authorization.id,
        });
        const response = presentPurchase({
          bundle: created,
          resultId: authorization.resultId,
          referralCode: await referralCodeFor(dataSource, authorization.payer),
          referral: intent && referralBeforeSettlement(intent),
        });
        return {
          response,
          // A purchase scores nothing: the ledger row has no profile or score.
          summary: { profile: null, score: null, passed: null, scorerVersion: 'none', referralCode: intent?.eligible ? code : null },
          calibrationText: null,
        };
      },
    );
  });

  router.get('/api/bundle/balance', async (ctx: AppContext) => {
    const found = await findBundleByTokenHash(dataSource, bundleTokenHashFrom(ctx.get(BUNDLE_TOKEN_HEADER)));
    if (!found) throw invalidBundleToken();
    ctx.set('Cache-Control', 'no-store');
    ctx.body = presentBalance(found);
  });

  router.post('/api/bundle/recover', validateBody(recoverRequestSchema), async (ctx: AppContext) => {
    const body = ctx.state.body as RecoverRequest;
    const found = await getBundle(dataSource, body.bundle_id);
    // One answer for "no such bundle" and "not yours": a bundle id reveals nothing about its owner.
    if (!found || found.wallet !== walletKey(body.wallet_address)) {
      throw new AppError(404, 'bundle_not_found', 'No bundle with this id belongs to this wallet.');
    }
    const now = Math.floor(Date.now() / 1000);
    if (Math.abs(now - body.timestamp) > RECOVERY_WINDOW_SECONDS) {
      throw new AppError(401, 'signature_expired', `The signed timestamp must be within ${RECOVERY_WINDOW_SECONDS} seconds of the server clock; sign a fresh message.`, {
        details: { server_time: now, window_seconds: RECOVERY_WINDOW_SECONDS },
      });
    }
    const message = recoveryMessage(found.id, body.timestamp);
    if (!(await isOwnerSignature(found.wallet, message, body.signature, deps.config.payments.evmRpcUrl))) {
      throw new AppError(401, 'invalid_signature', "The signature is not this wallet's signature of the recovery message (see details.message).", {
        details: { message },
      });
    }
    if (!found.settled) {
      throw new AppError(409, 'bundle_not_settled', 'This purchase has not settled; retry it with the same authorization and request first.');
    }
    const replaced = await replaceBundleToken(dataSource, found.id, body.timestamp);
    if (!replaced) throw new AppError(401, 'signature_reused', 'This signature was used already; sign the message again with a later timestamp.');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      ...presentBalance(replaced.bundle),
      bundle_token: replaced.token,
      token_note: 'Shown once and stored only as a hash; the previous token no longer works.',
    };
  });

  return router;
}

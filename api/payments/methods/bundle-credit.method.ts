import type { DataSource } from 'typeorm';
import { AppError } from '../../../shared/errors';
import { refundRedemption } from '../../../shared/payments/bundle-refunds';
import type { AppDeps } from '../../http/deps';
import { BUNDLE_TOKEN_HEADER, bundleTokenHashFrom, invalidBundleToken } from '../bundle-credit/bundle-token';
import { findBundleByTokenHash, type BundleRow } from '../bundle-credit/bundle-store';
import { walletKey } from '../bundle-credit/wallet-key';
import type { Charge } from '../charge';
import { idempotencyKeyHash } from '../idempotency';
import type { MethodRequest, PaidWork } from '../paid-work';
import type { PaidResource, PaymentExchange, PayOutcome } from '../payment-exchange';
import { paymentRequiredOutcome } from '../quote';
import { referralCodeFor } from '../../../shared/payments/referral-code';
import type { PaymentMethod } from './payment-method';

/** A credit taken for one session. */
export interface Redemption {
  id: string;
  bundleId: string;
  /** Public id of the session's result. */
  resultId: string;
  /** Credits left after this one was taken. */
  creditsRemaining: number;
}

interface RawRedemption {
  id: string;
  bundle_id: string;
  result_id: string;
  request_hash: string;
  status: 'reserved' | 'completed';
  response: Record<string, unknown> | null;
}

// Thrown inside the reservation transaction to roll back the decrement when another request
// bound the same Idempotency-Key first.
class KeyTaken extends Error {}

async function findRedemption(ds: DataSource, bundleId: string, keyHash: string): Promise<RawRedemption | undefined> {
  const rows = (await ds.query(
    `SELECT id, bundle_id, result_id, request_hash, status, response FROM bundle_redemptions WHERE bundle_id = $1 AND key_hash = $2`,
    [bundleId, keyHash],
  )) as RawRedemption[];
  return rows[0];
}

// Takes one credit and records the redemption in one transaction. The conditional decrement is
// the whole concurrency story: row-locked, it never takes a credit that is not there.
async function reserveCredit(
  ds: DataSource,
  bundleId: string,
  keyHash: string | null,
  requestHash: string,
): Promise<Redemption | 'exhausted' | 'key_taken'> {
  try {
    return await ds.transaction(async (tx) => {
      const taken = (await tx.query(
        `UPDATE bundles SET credits_remaining = credits_remaining - 1, updated_at = now()
          WHERE id = $1 AND credits_remaining > 0
          RETURNING credits_remaining`,
        [bundleId],
      )) as [Array<{ credits_remaining: number }>, number];
      const left = taken[0][0];
      if (!left) return 'exhausted' as const;
      const inserted = (await tx.query(
        `INSERT INTO bundle_redemptions (bundle_id, key_hash, request_hash, result_id) VALUES ($1, $2, $3, gen_random_uuid())
         ON CONFLICT ON CONSTRAINT uq_bundle_redemptions_key DO NOTHING
         RETURNING id, result_id`,
        [bundleId, keyHash, requestHash],
      )) as Array<{ id: string; result_id: string }>;
      if (!inserted[0]) throw new KeyTaken();
      return { id: inserted[0].id, bundleId, resultId: inserted[0].result_id, creditsRemaining: left.credits_remaining };
    });
  } catch (err) {
    if (err instanceof KeyTaken) return 'key_taken';
    throw err;
  }
}

async function completeRedemption(ds: DataSource, redemption: Redemption, outcome: RedemptionOutcome): Promise<RawRedemption | undefined> {
  return ds.transaction(async (tx) => {
    const done = (await tx.query(
      `UPDATE bundle_redemptions SET status = 'completed', response = $2, completed_at = now() WHERE id = $1 AND status = 'reserved' RETURNING id`,
      [redemption.id, JSON.stringify(outcome.response)],
    )) as [unknown[], number];
    const share = outcome.calibration;
    if (done[0].length > 0 && share) {
      await tx.query(
        `INSERT INTO calibration_shares (result_id, profile, eq_score, text, scorer_version) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT ON CONSTRAINT uq_calibration_shares_result_id DO NOTHING`,
        [redemption.resultId, share.profile, share.score, share.text, share.scorerVersion],
      );
    }
    const rows = (await tx.query(
      `SELECT id, bundle_id, result_id, request_hash, status, response FROM bundle_redemptions WHERE id = $1`,
      [redemption.id],
    )) as RawRedemption[];
    return rows[0];
  });
}

function deliverRedemption(response: Record<string, unknown> | null, replayed: boolean): PayOutcome {
  return { kind: 'delivered', body: response ?? {}, replayed };
}

function bundleExhausted(deps: AppDeps, charge: Charge, resource: PaidResource): PayOutcome {
  return paymentRequiredOutcome(
    deps,
    charge,
    resource,
    'bundle_exhausted',
    'This bundle has no credits left: pay for this call (sign the first entry of accepts and retry with PAYMENT-SIGNATURE, without X-BUNDLE-TOKEN), or buy a new bundle at POST /api/bundle.',
  );
}

/** What a completed redemption stores: the body to deliver, and any calibration share. */
interface RedemptionOutcome {
  response: Record<string, unknown>;
  calibration: { profile: string; score: number; text: string; scorerVersion: string } | null;
}

// The wallet a redemption runs for: the bundle's owner, or for a card bundle (no owner: its token
// alone spends it) the request's wallet_address.
function redeemingWallet(bundle: BundleRow, requestWallet: string): string {
  return bundle.wallet ?? walletKey(requestWallet);
}

// The work under one credit: the body gains the redeeming wallet's referral code and the redemption
// (rewards arrive in per-call responses only, so a redemption's stored body holds no secret).
async function runWork(ds: DataSource, redemption: Redemption, bundle: BundleRow, payer: string, work: PaidWork): Promise<RedemptionOutcome> {
  const [outcome, referralCode] = await Promise.all([
    work({
      resultId: redemption.resultId,
      payer,
      authorizationId: null,
      jobIdentity: { kind: 'idempotency-key', key: `bundle-redemption/${redemption.id}` },
      method: bundleCreditMethod.id,
    }),
    referralCodeFor(ds, payer),
  ]);
  const { summary, calibrationText } = outcome;
  return {
    response: {
      ...outcome.response,
      referral_code: referralCode,
      reward_bundle_tokens: [],
      redemption: { bundle_id: bundle.id, credits_spent: 1, credits_remaining: redemption.creditsRemaining },
    },
    calibration:
      calibrationText !== null && summary.profile !== null && summary.score !== null
        ? { profile: summary.profile, score: summary.score, text: calibrationText, scorerVersion: summary.scorerVersion }
        : null,
  };
}

async function redeem(
  exchange: PaymentExchange,
  deps: AppDeps,
  product: string,
  redemption: Redemption,
  bundle: BundleRow,
  payer: string,
  work: PaidWork,
  replayed: boolean,
): Promise<PayOutcome> {
  const ds = deps.dataSource;
  let outcome: RedemptionOutcome;
  try {
    outcome = await runWork(ds, redemption, bundle, payer, work);
  } catch (err) {
    await refundRedemption(ds, redemption.id);
    throw err;
  }
  const stored = await completeRedemption(ds, redemption, outcome);
  if (stored?.status !== 'completed') {
    // A concurrent request with the same key failed and gave the credit back meanwhile.
    throw new AppError(503, 'redemption_interrupted', 'This redemption was given back while it ran; retry the same request.', {
      expose: true,
      headers: { 'Retry-After': '1' },
    });
  }
  await deps.evidence.delivered(exchange, product, { key: `bundle-redemption/${redemption.id}`, payer, proves: ['successful_invocations'] });
  return deliverRedemption(stored.response, replayed);
}

/**
 * The bundle-credit method of the payment pipeline: a basic session paid with one bundle credit
 * (`X-BUNDLE-TOKEN`) instead of a payment: the
 * token names the bundle, `wallet_address` must own it (credits belong to the paying wallet; a
 * card bundle has no owner and its token alone spends it), one
 * credit is taken atomically (never below zero, whatever the concurrency), the work runs, and the
 * credit is given back if it fails. With an Idempotency-Key, the same request replays the stored
 * result (header X-Payment-Replayed: true) without a second credit; another request with the key
 * is a 409. A redemption is not a ledger settlement: the purchase of the bundle was.
 * @param token - the bundle token the call carries
 * @param exchange - the call: its resource
 * @param deps - app dependencies
 * @param request - wallet, request hash, idempotency key, the per-call charge (offered when the bundle is empty)
 * @param work - the session
 * @returns the delivery, or the challenge when the bundle is empty
 * @throws AppError 401 bundle_token_required / invalid_bundle_token, 403 bundle_wallet_mismatch,
 *   409 idempotency_conflict; a 402 challenge with error bundle_exhausted is answered, not thrown
 */
async function payWithBundleCredit(token: string, exchange: PaymentExchange, deps: AppDeps, request: MethodRequest, work: PaidWork): Promise<PayOutcome> {
  const ds = deps.dataSource;
  const bundle = await findBundleByTokenHash(ds, bundleTokenHashFrom(token));
  if (!bundle) throw invalidBundleToken();
  // A card bundle has no owner to match; a wallet-bought bundle's credits belong to its wallet.
  if (bundle.wallet !== null && walletKey(request.wallet) !== bundle.wallet) {
    throw new AppError(403, 'bundle_wallet_mismatch', 'wallet_address must be the wallet that owns this bundle: its credits belong to the paying wallet.');
  }
  const keyHash = request.idempotencyKey === undefined ? null : idempotencyKeyHash(exchange.resource.key, request.idempotencyKey);
  // Two rounds at most: a key bound by a concurrent request between our lookup and our insert is
  // found on the second lookup.
  for (let round = 0; round < 2; round++) {
    if (keyHash) {
      const existing = await findRedemption(ds, bundle.id, keyHash);
      if (existing) {
        if (existing.request_hash !== request.requestHash) {
          throw new AppError(409, 'idempotency_conflict', 'This Idempotency-Key was used with a different request; use a new key for a new request.');
        }
        if (existing.status === 'completed') return deliverRedemption(existing.response, true);
        const resumed = { id: existing.id, bundleId: bundle.id, resultId: existing.result_id, creditsRemaining: bundle.creditsRemaining };
        return redeem(exchange, deps, request.charge.product, resumed, bundle, redeemingWallet(bundle, request.wallet), work, true);
      }
    }
    const reserved = await reserveCredit(ds, bundle.id, keyHash, request.requestHash);
    if (reserved === 'exhausted') return bundleExhausted(deps, request.charge, exchange.resource);
    if (reserved !== 'key_taken') return redeem(exchange, deps, request.charge.product, reserved, bundle, redeemingWallet(bundle, request.wallet), work, false);
  }
  throw new Error('an Idempotency-Key bound concurrently could not be found');
}

/** The `_meta` key of a bundle token on an MCP tool call. */
export const MCP_BUNDLE_TOKEN_META_KEY = 'humanlike/bundle-token';

// Bundle credits are basic-score credits (the contract's section 8), whatever the product.
const PAYS_FOR: ReadonlyArray<{ product: string; tier: string | null }> = [{ product: 'simulate', tier: 'basic' }];

/** Prepaid bundle credits: one basic session per credit, by `X-BUNDLE-TOKEN` (or MCP `_meta`). */
export const bundleCreditMethod: PaymentMethod<string> = {
  id: 'bundle-credit',
  proof: BUNDLE_TOKEN_HEADER,
  headers: [
    {
      name: BUNDLE_TOKEN_HEADER,
      description: 'A prepaid bundle token (basic tier only): redeems one credit instead of a payment; wallet_address must own the bundle.',
      secret: true,
    },
  ],
  metaKeys: [MCP_BUNDLE_TOKEN_META_KEY],
  read(proofs) {
    const token = proofs.header(BUNDLE_TOKEN_HEADER) || proofs.meta(MCP_BUNDLE_TOKEN_META_KEY);
    return typeof token === 'string' && token !== '' ? token : undefined;
  },
  accepts: (charge) => PAYS_FOR.some((p) => p.product === charge.product && p.tier === charge.tier),
  notAccepted(charge) {
    const what = charge.tier ? `${charge.product} ${charge.tier}` : charge.product;
    return new AppError(422, 'bundle_basic_only', `${BUNDLE_TOKEN_HEADER} pays for basic sessions only, not ${what}; pay per call instead (nothing was spent).`, {
      details: { fields: [{ path: charge.tier ? '/tier' : `header:${BUNDLE_TOKEN_HEADER}`, rule: 'bundle_basic_only', message: 'a bundle token pays for basic sessions only' }] },
    });
  },
  cardStep: { action: 'Or spend a prepaid credit.', detail: `With ${BUNDLE_TOKEN_HEADER} instead of a payment (basic tier only), one credit of the bundle pays for the call.` },
  run: payWithBundleCredit,
};

import { maskWallet } from '../../shared/payments/mask';
import type { BundleRow } from '../payments/bundle-credit/bundle-store';

/** The note of a delivery that carries the token. */
export const TOKEN_SHOWN_NOTE =
  'bundle_token is shown this once and stored only as a hash: keep it secret. If it is lost, POST /api/bundle/recover with a signature of this wallet gets a new one (the old one stops working).';

// How a buyer gets its token across retries: the claim header, signed by the paying wallet.
const CLAIM_HOW =
  'send the same request with the same payment and X-BUNDLE-CLAIM: the paying wallet\'s signature (EIP-191 personal_sign, or ed25519 for Solana) of "humanlike: claim bundle token\\nnonce: <the payment\'s nonce>"';

/** The note of a stored purchase (what replays show): the token is never in a stored response. */
export const TOKEN_WITHHELD_NOTE =
  `bundle_token is shown once, in the first delivery after settlement, to the request that paid or to one that proves it comes from the payer (${CLAIM_HOW}); a replay rebuilt from the public chain never gets it. ` +
  'Once shown, a new token (the old one stops working) comes from POST /api/bundle/recover with a signature of this wallet.';

/** The note of every answer to a purchase that is not its delivery (quote, refusal, pending). */
export const TOKEN_PENDING_NOTE =
  `The bundle token comes in the first 200 after settlement. If this answer is not final (503, 504, a lost answer), never pay again: ${CLAIM_HOW}, and the token is delivered once. After that, POST /api/bundle/recover.`;

/**
 * A stored wallet as public output shows it: first 6 and last 4 characters (EVM checksummed first).
 * @param wallet - stored wallet key (null: a card bundle, which has no owner)
 * @returns e.g. `0xAbC1…9f3E`, or null
 */
export function maskedWallet(wallet: string): string;
export function maskedWallet(wallet: string | null): string | null;
export function maskedWallet(wallet: string | null): string | null {
  if (wallet === null) return null;
  return maskWallet(wallet);
}

/**
 * The body of a bundle purchase as stored for replays: no token (`bundle_token: null` and a note on
 * how to recover); the first delivery adds the token without storing it.
 * @param input - the bundle, the result id, the referral outcome so far (the pipeline adds the buyer's referral code)
 * @returns the body
 */
export function presentPurchase(input: {
  bundle: BundleRow;
  resultId: string;
  referral?: Record<string, unknown>;
}): Record<string, unknown> {
  const { bundle } = input;
  return {
    bundle_id: bundle.id,
    bundle_token: null,
    token_note: TOKEN_WITHHELD_NOTE,
    plan: bundle.plan,
    credits: bundle.creditsTotal,
    credits_remaining: bundle.creditsTotal,
    wallet: maskedWallet(bundle.wallet),
    ...(input.referral ? { referral: input.referral } : {}),
    reward_bundle_tokens: [],
    reward_bundles: [],
    result_id: input.resultId,
  };
}

/**
 * The public view of a bundle (balance and recovery answers).
 * @param bundle - the bundle
 * @returns id, plan, credits, owner (masked), creation time
 */
export function presentBalance(bundle: BundleRow): Record<string, unknown> {
  return {
    bundle_id: bundle.id,
    plan: bundle.plan,
    credits_total: bundle.creditsTotal,
    credits_remaining: bundle.creditsRemaining,
    wallet: maskedWallet(bundle.wallet),
    created_at: bundle.createdAt.toISOString(),
  };
}

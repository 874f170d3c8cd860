import type { AppConfig } from '../../shared/config';
import { CARD_PACKS, PRICES, PRODUCT_TERMS, type Price } from '../../shared/pricing';

const LEGACY_NETWORK = 'solana';

function price(p: Price) {
  return { price_usdc_units: p.usdcUnits, price_lamports: p.lamports };
}

function paid(method: 'POST', path: string, p: Price, extra: Record<string, unknown> = {}) {
  return { method, path, ...price(p), quote: { method: 'GET', path }, payment: 'x402', ...extra };
}

/**
 * The pricing manifest of `GET /api/pricing`: one member per product (interface description §2),
 * the base quotes of §8 and the treasury addresses from config. The live 402 quote is authoritative.
 * @param payments - the `payments` section of the config
 * @param freeTier - the `freeTier` section of the config
 * @returns the manifest
 */
export function buildPricingManifest(payments: AppConfig['payments'], freeTier: AppConfig['freeTier']) {
  const t = PRODUCT_TERMS;
  return {
    score_endpoint: {
      method: 'POST',
      path: '/api/score',
      price_usdc_units: 0,
      price_lamports: 0,
      free_scores_per_caller: freeTier.scoreLimit,
      resets: 'never',
      requires: { data_consent: true, wishlist_item_before_score: freeTier.wishlistRequiredFrom, wishlist_endpoint: '/api/wishlist' },
      when_cap_used: { status: 429, upgrade: '/api/simulate' },
      ledger: false,
    },
    train_endpoint: { method: 'POST', path: '/api/train', status: 'retired', http_status: 410, replacement: '/api/simulate' },
    loyalty_program: {
      status: 'legacy',
      threshold_sessions: t.loyaltyThresholdSessions,
      discount_pct: t.loyaltyDiscountPct,
      applies_to: ['/api/duel'],
      applies_to_simulate: false,
    },
    deep_analysis_tier: {
      ...paid('POST', '/api/simulate', PRICES.simulateDeep),
      tier: 'deep',
      adds: ['per-dimension diagnostics (measured vs target, deltas)', 'machine-like signals with evidence', 'prioritized rewrite guidance'],
    },
    simulate_endpoint: {
      ...paid('POST', '/api/simulate', PRICES.simulateBasic),
      tiers: { basic: price(PRICES.simulateBasic), deep: price(PRICES.simulateDeep) },
      bundle_token_accepted: 'basic tier only',
      idempotency_header: 'Idempotency-Key',
    },
    calibration_sharing_program: {
      flag: 'share_for_calibration',
      default: false,
      discount_pct: 0,
      storage_threshold_score_pct: t.calibrationThresholdPct,
      stored: 'only high-scoring responses of consenting callers, for manual review',
    },
    duel_endpoint: {
      ...paid('POST', '/api/duel', PRICES.duelPerBot),
      priced_per: 'bot',
      fee_formula: `entry_fee * (1 + failures * ${t.duelFailureSurcharge})`,
      loyalty_discount_applies: true,
      open_expiry_hours: t.duelOpenExpiryHours,
    },
    progress_report_endpoint: paid('POST', '/api/progress', PRICES.progress),
    stress_test_endpoint: paid('POST', '/api/stress-test', PRICES.stressTest, { profiles: 28 }),
    training_dataset_endpoint: paid('POST', '/api/training-dataset', PRICES.trainingDataset),
    script_check_endpoint: paid('POST', '/api/script-check', PRICES.scriptCheck),
    roleplay_endpoint: {
      ...paid('POST', '/api/roleplay', PRICES.roleplay),
      turns: t.roleplayTurns,
      lamports_per_turn: t.roleplayLamportsPerTurn,
      unmatched_expiry_hours: t.roleplayUnmatchedExpiryHours,
      join: { method: 'POST', path: '/api/roleplay/join', price_usdc_units: 0 },
    },
    coaching_endpoint: { ...paid('POST', '/api/coaching', PRICES.coaching), attempts: t.coachingAttempts },
    prepaid_bundle: {
      ...paid('POST', '/api/bundle', PRICES.bundle),
      credits: t.bundleCredits,
      discount_pct: t.bundleDiscountPct,
      list_lamports: t.bundleListLamports,
      lamports_per_credit: t.bundleLamportsPerCredit,
      plans: ['bundle', 'fleet'],
      plan_terms: {
        bundle: { credits: t.bundleCredits, ...price(PRICES.bundle) },
        fleet: {
          credits: t.fleetCredits,
          ...price(PRICES.fleet),
          shared_by: 'one token for a fleet of agents of the paying wallet; the terms of the fleet card pack, at the bundle per-credit rate',
        },
      },
      redeem_header: 'X-BUNDLE-TOKEN',
      redeems: 'basic tier only',
      credits_per_session: 1,
      credits_belong_to: 'the paying wallet (wallet_address must match on every redemption)',
      when_exhausted: { status: 402, error: 'bundle_exhausted', then: 'pay per call' },
      balance: { method: 'GET', path: '/api/bundle/balance' },
      token_shown: 'once',
      token_recovery: { method: 'POST', path: '/api/bundle/recover', proof: 'a signature of the owning wallet (EIP-191 personal_sign or ed25519)' },
    },
    embedded_check_endpoint: {
      method: 'POST',
      path: '/api/embed/check',
      billing: 'one prepaid basic credit per accepted new edited-text request; a completed replay with the same key is free',
      accepts: 'existing prepaid bundle only (X-BUNDLE-TOKEN); no anonymous or free use',
      idempotency_key_format: 'embed-<13-digit-ms-timestamp>-<opaque-suffix>',
      replay_retention_seconds: t.embedReplayRetentionSeconds,
      modes: ['structural', 'contextual'],
    },
    card_credit_packs: {
      checkout: { method: 'POST', path: '/api/card/checkout' },
      catalog: { method: 'GET', path: '/api/card/packs' },
      packs: CARD_PACKS.map((p) => ({ id: p.id, price_usd: p.priceUsd, credits: p.credits, discount_pct: p.discountPct })),
      auto_refill: 'optional monthly renewal with auto_refill: true; a failed or canceled renewal adds no credits and is not retried',
    },
    referral_program: {
      reward_pct: t.referralRewardPct,
      reward: 'basic-score credits worth 50 percent of what the referred wallet spends, delivered as bundle tokens in your next paid response',
      rules: ['paid purchases only', 'one referrer per wallet', 'no self-referrals', 'no circular referrals', 'credits are non-transferable and basic tier only'],
      code_accepted_on: { method: 'POST', path: '/api/bundle', field: 'referral_code', when: "a new wallet's first paid purchase" },
      reward_basis: 'every settled paid purchase of the referred wallet, USDC and SOL each at the basic session price; remainders carry forward',
      status: { method: 'GET', path: '/api/referral/status/{code}' },
    },
    payment: {
      protocol: 'x402',
      x402_version: 2,
      header: 'PAYMENT-SIGNATURE',
      receipt_headers: ['PAYMENT-RESPONSE', 'X-PAYMENT-RESPONSE'],
      scheme: 'exact',
      default_rail: 'payment_usdc',
      legacy: {
        x402_version: 1,
        header: 'X-PAYMENT',
        network: LEGACY_NETWORK,
        unit: 'lamports',
        pay_to: payments.treasury.solana ?? null,
        body_alternative: ['tx_hash', 'wallet_address'],
      },
      accounts: 'none: identity for paid calls is the paying wallet',
    },
    payment_usdc: {
      network: payments.network,
      asset: payments.usdcAsset,
      asset_symbol: 'USDC',
      decimals: t.usdcDecimals,
      pay_to: payments.treasury.evm ?? null,
      transfer: 'EIP-3009 TransferWithAuthorization',
      gasless_for_payer: true,
    },
    terms: {
      quotes: 'The live 402 quote is authoritative for amount and terms; these are published base quotes.',
      retries: 'Retry a lost or ambiguous paid response only with the same authorization and the exact same request; never create a replacement payment.',
      settlement: 'Payment settles only after a successful result; a failed or timed-out job is not charged.',
      free_tier: `${freeTier.scoreLimit} lifetime free scores per caller, never reset; data_consent must be true.`,
      private_keys: 'The service never receives or stores a private key.',
    },
    currency_note:
      'USDC amounts are atomic units with 6 decimals (50000 = 0.05 USDC). Lamport amounts are in the legacy SOL unit (1 SOL = 1,000,000,000 lamports). Card pack prices are USD.',
  };
}

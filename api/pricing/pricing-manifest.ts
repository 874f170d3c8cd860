import type { AppConfig } from '../../shared/config';
import { livePrice, type NetworkConfig } from '../../shared/operators/network-config';
import { AGENT_PLAN_PRODUCT, AGENT_PLANS, QUOTE_TTL_SECONDS } from '../../shared/catalog/agent-plans';
import { CARD_PACKS, PRODUCT_TERMS, PRODUCTS, type Price, type Product } from '../../shared/products';

const LEGACY_NETWORK = 'solana';

/** The operations the service serves, as `METHOD /path` (e.g. `GET /api/simulate`). */
export type ServedOperations = ReadonlySet<string>;

function price(p: Price) {
  return { price_usdc_units: p.usdcUnits, price_lamports: p.lamports };
}

// A reference to an endpoint: `available` says whether this server answers it yet.
function endpoint(served: ServedOperations, method: string, path: string) {
  return { method, path, available: served.has(`${method} ${path}`) };
}

// A product's member: its default tier's price, every tier's price when it has several, its
// published terms, and the quote path only once a GET on it answers the 402 quote.
function productMember(product: Product, served: ServedOperations, network: Pick<NetworkConfig, 'simulateBaseLamports'>) {
  const tiers = Object.keys(product.tiers);
  const member: Record<string, unknown> = {
    ...endpoint(served, product.method, product.path),
    ...price(livePrice(product, product.defaultTier, network)),
    payment: 'x402',
    loyalty_discount_applies: product.loyaltyDiscount,
    ...product.terms,
  };
  if (tiers.length > 1) member.tiers = Object.fromEntries(tiers.map((id) => [id, price(livePrice(product, id, network))]));
  if (served.has(`GET ${product.path}`)) member.quote = { method: 'GET', path: product.path };
  return member;
}

/**
 * The pricing manifest of `GET /api/pricing`: one member per product (interface description
 * section 2), derived from the product catalog, with the treasury addresses from config. The live
 * 402 quote is authoritative.
 * @param payments - the `payments` section of the config
 * @param freeTier - the `freeTier` section of the config
 * @param served - the operations this server answers (a path not served yet is marked unavailable)
 * @param network - the runtime network configuration (an admin may change the base simulation fee)
 * @returns the manifest
 */
export function buildPricingManifest(
  payments: AppConfig['payments'],
  freeTier: AppConfig['freeTier'],
  served: ServedOperations,
  network: Pick<NetworkConfig, 'simulateBaseLamports'>,
) {
  const t = PRODUCT_TERMS;
  const products = Object.fromEntries(Object.values(PRODUCTS).map((p) => [p.manifestKey, productMember(p, served, network)]));
  const simulate = PRODUCTS.simulate;
  // Joining a room is free (section 3); it is published with the room's terms.
  Object.assign(products[PRODUCTS.roleplay.manifestKey], { join: { ...endpoint(served, 'POST', '/api/roleplay/join'), price_usdc_units: 0 } });
  return {
    score_endpoint: {
      ...endpoint(served, 'POST', '/api/score'),
      price_usdc_units: 0,
      price_lamports: 0,
      free_scores_per_caller: freeTier.scoreLimit,
      resets: 'never',
      requires: { data_consent: true, wishlist_item_before_score: freeTier.wishlistRequiredFrom, wishlist_endpoint: '/api/wishlist' },
      when_cap_used: { status: 429, upgrade: simulate.path },
      ledger: false,
    },
    train_endpoint: { method: 'POST', path: '/api/train', status: 'retired', http_status: 410, replacement: simulate.path },
    loyalty_program: {
      status: 'legacy',
      threshold_sessions: t.loyaltyThresholdSessions,
      discount_pct: t.loyaltyDiscountPct,
      applies_to: Object.values(PRODUCTS).filter((p) => p.loyaltyDiscount).map((p) => p.path),
      applies_to_simulate: simulate.loyaltyDiscount,
    },
    deep_analysis_tier: {
      ...endpoint(served, simulate.method, simulate.path),
      ...price(simulate.tiers.deep.price),
      tier: 'deep',
      payment: 'x402',
      ...(served.has(`GET ${simulate.path}`) ? { quote: { method: 'GET', path: simulate.path, query: { tier: 'deep' } } } : {}),
      adds: ['per-dimension diagnostics (measured vs target, deltas)', 'machine-like signals with evidence', 'prioritized rewrite guidance'],
    },
    ...products,
    calibration_sharing_program: {
      flag: 'share_for_calibration',
      default: false,
      discount_pct: 0,
      storage_threshold_score_pct: t.calibrationThresholdPct,
      stored: 'only high-scoring responses of consenting callers, for manual review',
    },
    prepaid_bundle: {
      ...(products[PRODUCTS.bundle.manifestKey] as Record<string, unknown>),
      credits: t.bundleCredits,
      discount_pct: t.bundleDiscountPct,
      list_lamports: t.bundleListLamports,
      lamports_per_credit: t.bundleLamportsPerCredit,
      plans: Object.keys(PRODUCTS.bundle.tiers),
      plan_terms: {
        bundle: { credits: t.bundleCredits, ...price(PRODUCTS.bundle.tiers.bundle.price) },
        fleet: {
          credits: t.fleetCredits,
          ...price(PRODUCTS.bundle.tiers.fleet.price),
          shared_by: 'one token for a fleet of agents of the paying wallet; the terms of the fleet card pack, at the bundle per-credit rate',
        },
      },
      redeem_header: 'X-BUNDLE-TOKEN',
      redeems: 'basic tier only',
      credits_per_session: 1,
      credits_belong_to: 'the paying wallet (wallet_address must match on every redemption)',
      when_exhausted: { status: 402, error: 'bundle_exhausted', then: 'pay per call' },
      balance: endpoint(served, 'GET', '/api/bundle/balance'),
      token_shown: 'once',
      token_recovery: { ...endpoint(served, 'POST', '/api/bundle/recover'), proof: 'a signature of the owning wallet (EIP-191 personal_sign or ed25519)' },
    },
    embedded_check_endpoint: {
      ...endpoint(served, 'POST', '/api/embed/check'),
      billing: 'one prepaid basic credit per accepted new edited-text request; a completed replay with the same key is free',
      accepts: 'existing prepaid bundle only (X-BUNDLE-TOKEN); no anonymous or free use',
      idempotency_key_format: 'embed-<13-digit-ms-timestamp>-<opaque-suffix>',
      replay_retention_seconds: t.embedReplayRetentionSeconds,
      modes: ['structural', 'contextual'],
      credits_per_check: 1,
      when_exhausted: { status: 403, error: 'bundle_exhausted', charged: false },
      when_busy: { status: 429, error: 'paid_capacity_busy', header: 'Retry-After', charged: false },
      key_reused_with_other_inputs: { status: 409, error: 'idempotency_conflict', charged: false },
      contextual_unavailable: { status: 503, error: 'contextual_unavailable', charged: false },
      browser_component: endpoint(served, 'GET', '/api/embed/humanlike-check-1.js'),
    },
    // Bought through a quote, not by posting a body to one product path: the steps and each plan's price.
    [AGENT_PLAN_PRODUCT.manifestKey]: {
      catalog: endpoint(served, 'GET', '/api/catalog/agent/catalog'),
      quotes: endpoint(served, 'POST', '/api/catalog/agent/quotes'),
      renewals: endpoint(served, 'POST', '/api/catalog/agent/renewals'),
      upgrades: endpoint(served, 'POST', '/api/catalog/agent/upgrades'),
      payment: { ...endpoint(served, 'POST', AGENT_PLAN_PRODUCT.path), payment: 'x402' },
      plans: AGENT_PLANS.map((p) => ({ id: p.id, name: p.name, credits: p.credits, period_days: p.periodDays, ...price(p.price) })),
      quote_ttl_seconds: QUOTE_TTL_SECONDS,
      upgrade_charge: 'the difference in price and credits between the two plans',
      requires: 'a verified install of the embedded check (/api/catalog/verified-installs/{workflow_id})',
    },
    card_credit_packs: {
      checkout: endpoint(served, 'POST', '/api/card/checkout'),
      catalog: endpoint(served, 'GET', '/api/card/packs'),
      packs: CARD_PACKS.map((p) => ({ id: p.id, price_usd: p.priceUsd, credits: p.credits, discount_pct: p.discountPct })),
      auto_refill: 'optional monthly renewal with auto_refill: true; a failed or canceled renewal adds no credits and is not retried',
      renewal_cancel: { ...endpoint(served, 'POST', '/api/card/renewal/cancel'), header: 'X-BUNDLE-TOKEN' },
      redeem_header: 'X-BUNDLE-TOKEN',
      redeems: 'basic tier only',
      token_shown: 'once, in the checkout response of a new bundle',
      payment: 'card on the processor\'s hosted checkout page; prices in USD',
    },
    referral_program: {
      reward_pct: t.referralRewardPct,
      reward: 'basic-score credits worth 50 percent of what the referred wallet spends, delivered as bundle tokens in your next paid response',
      rules: ['paid purchases only', 'one referrer per wallet', 'no self-referrals', 'no circular referrals', 'credits are non-transferable and basic tier only'],
      code_accepted_on: { ...endpoint(served, 'POST', PRODUCTS.bundle.path), field: 'referral_code', when: "a new wallet's first paid purchase" },
      reward_basis: 'every settled paid purchase of the referred wallet, USDC and SOL each at the basic session price; remainders carry forward',
      status: endpoint(served, 'GET', '/api/referral/status/{code}'),
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

/**
 * The product catalog: every paid product's id, path, tiers, prices and published terms (the
 * contract's sections 4.1 and 8; which payment methods pay for a tier, each method says itself in
 * `api/payments/methods`). The pricing manifest, every 402 quote, the OpenAPI prices and the
 * ledger's product column derive from it; nothing restates a price or a path by hand. The live 402 quote is authoritative (it may apply a discount).
 */

/** A published base quote: USDC atomic units (6 decimals) and legacy lamports. Integers, never floats. */
export interface Price {
  readonly usdcUnits: number;
  readonly lamports: number;
}

/** Asset name of the legacy rail's native SOL (it has no token address; amounts in lamports). Every other asset is USDC. */
export const SOL_ASSET = 'SOL';

/** One priced tier of a product. */
export interface ProductTier {
  readonly price: Price;
  /** One line for the challenge's `resource.description`. */
  readonly description: string;
}

/** The tier key of a product sold at one price (its ledger tier is null). */
export const SINGLE_TIER = 'standard';

/**
 * What a product's ledger row is, for every read that ranks, trends or shows it:
 * `scored_session`, a reply scored against a profile (its `score` is an EQ score, its `passed` a verdict);
 * `analysis`, a paid analysis of a reply (stress test, rewrite, script check: its `score` is the
 * analysis's own figure, never an EQ score); `report`, a read of the wallet's own history; `purchase`,
 * something bought to use later (bundle credits, a coaching pack, a role-play room).
 */
export type LedgerKind = 'scored_session' | 'analysis' | 'report' | 'purchase';

/** A paid product. */
export interface Product {
  /** The ledger's product column. */
  readonly id: string;
  /** What its ledger row is (see {@link LedgerKind}). */
  readonly kind: LedgerKind;
  /** Its name as people read it in the live feed and on public pages. */
  readonly label: string;
  readonly method: 'POST';
  readonly path: string;
  /** Its member in the pricing manifest (GET /api/pricing). */
  readonly manifestKey: string;
  readonly defaultTier: string;
  readonly tiers: Readonly<Record<string, ProductTier>>;
  /** Honours the Idempotency-Key header (section 5 item 5). */
  readonly idempotencyKey: boolean;
  /** The legacy loyalty discount applies to it (section 8: never to /api/simulate). */
  readonly loyaltyDiscount: boolean;
  /** Published terms beyond the price, shown in the manifest as they are. */
  readonly terms: Readonly<Record<string, unknown>>;
}

/** Product facts that go with the prices (section 8 limits). */
export const PRODUCT_TERMS = Object.freeze({
  usdcDecimals: 6,
  roleplayTurns: 8,
  roleplayLamportsPerTurn: 270_000,
  roleplayUnmatchedExpiryHours: 48,
  duelOpenExpiryHours: 24,
  duelFailureSurcharge: 0.5,
  coachingAttempts: 18,
  bundleCredits: 1000,
  bundleDiscountPct: 15,
  bundleListLamports: 270_000_000,
  bundleLamportsPerCredit: 229_500,
  /** The `fleet` plan's credits, as in the fleet card pack, under one token for the paying wallet's agents. */
  fleetCredits: 1176,
  loyaltyThresholdSessions: 10,
  loyaltyDiscountPct: 10,
  calibrationThresholdPct: 85.0,
  referralRewardPct: 50,
  embedReplayRetentionSeconds: 86_400,
});


function single(usdcUnits: number, lamports: number, description: string): Readonly<Record<string, ProductTier>> {
  return { [SINGLE_TIER]: { price: { usdcUnits, lamports }, description } };
}

function product(p: Omit<Product, 'method' | 'idempotencyKey' | 'loyaltyDiscount' | 'terms'> & Partial<Product>): Product {
  return Object.freeze({ method: 'POST', idempotencyKey: false, loyaltyDiscount: true, terms: {}, ...p });
}

const t = PRODUCT_TERMS;

/** Every paid product of the price table (section 8), in manifest order. */
export const PRODUCTS = Object.freeze({
  simulate: product({
    id: 'simulate',
    kind: 'scored_session',
    label: 'Scored session',
    path: '/api/simulate',
    manifestKey: 'simulate_endpoint',
    defaultTier: 'basic',
    tiers: {
      basic: {
        price: { usdcUnits: 50_000, lamports: 270_000 },
        description: 'Basic scoring session: score, suggested prompt addition, improvement hint.',
      },
      deep: {
        price: { usdcUnits: 180_000, lamports: 950_000 },
        description: 'Deep scoring session: diagnostics, machine-like signals with evidence, rewrite guidance.',
      },
    },
    idempotencyKey: true,
    loyaltyDiscount: false,
    terms: { idempotency_header: 'Idempotency-Key', bundle_token_accepted: 'basic tier only' },
  }),
  duel: product({
    id: 'duel',
    kind: 'scored_session',
    label: 'Duel leg',
    path: '/api/duel',
    manifestKey: 'duel_endpoint',
    defaultTier: SINGLE_TIER,
    tiers: single(75_000, 400_000, 'Duel entry for one bot: a full scored session against the same prompt and profile as its opponent.'),
    terms: {
      priced_per: 'bot',
      fee_formula: `entry_fee * (1 + failures * ${t.duelFailureSurcharge})`,
      open_expiry_hours: t.duelOpenExpiryHours,
    },
  }),
  progress: product({
    id: 'progress',
    kind: 'report',
    label: 'Progress report',
    path: '/api/progress',
    manifestKey: 'progress_report_endpoint',
    defaultTier: SINGLE_TIER,
    tiers: single(180_000, 950_000, "Progress report: the wallet's score history, trend, streak, percentile and style drift."),
  }),
  stressTest: product({
    id: 'stress-test',
    kind: 'analysis',
    label: 'Stress test',
    path: '/api/stress-test',
    manifestKey: 'stress_test_endpoint',
    defaultTier: SINGLE_TIER,
    tiers: single(180_000, 950_000, 'Stress test: one reply scored against all 28 profiles, with the weakness map.'),
    terms: { profiles: 28 },
  }),
  trainingDataset: product({
    id: 'training-dataset',
    kind: 'report',
    label: 'Training-dataset export',
    path: '/api/training-dataset',
    manifestKey: 'training_dataset_endpoint',
    defaultTier: SINGLE_TIER,
    tiers: single(180_000, 950_000, "Training-dataset export: the wallet's scored history as fine-tuning-ready records."),
  }),
  rewrite: product({
    id: 'rewrite',
    kind: 'analysis',
    label: 'Rewrite',
    path: '/api/rewrite',
    manifestKey: 'rewrite_endpoint',
    defaultTier: SINGLE_TIER,
    tiers: single(180_000, 950_000, "Rewrite toward the profile's measured dials, with before/after scores."),
  }),
  scriptCheck: product({
    id: 'script-check',
    kind: 'analysis',
    label: 'Script check',
    path: '/api/script-check',
    manifestKey: 'script_check_endpoint',
    defaultTier: SINGLE_TIER,
    tiers: single(180_000, 950_000, 'Script check: every checkable claim flagged on-script or off-script, with an adherence score.'),
  }),
  roleplay: product({
    id: 'roleplay',
    kind: 'purchase',
    label: 'Role-play room',
    path: '/api/roleplay',
    manifestKey: 'roleplay_endpoint',
    defaultTier: SINGLE_TIER,
    tiers: single(400_000, 2_160_000, `Role-play room: ${t.roleplayTurns} scored turns between two bots.`),
    terms: { turns: t.roleplayTurns, lamports_per_turn: t.roleplayLamportsPerTurn, unmatched_expiry_hours: t.roleplayUnmatchedExpiryHours },
  }),
  coaching: product({
    id: 'coaching',
    kind: 'purchase',
    label: 'Coaching pack',
    path: '/api/coaching',
    manifestKey: 'coaching_endpoint',
    defaultTier: SINGLE_TIER,
    tiers: single(540_000, 2_850_000, `Coaching pack: ${t.coachingAttempts} drill attempts toward a certificate.`),
    terms: { attempts: t.coachingAttempts },
  }),
  bundle: product({
    id: 'bundle',
    kind: 'purchase',
    label: 'Bundle purchase',
    path: '/api/bundle',
    manifestKey: 'prepaid_bundle',
    defaultTier: 'bundle',
    tiers: {
      bundle: {
        price: { usdcUnits: 42_500_000, lamports: 229_500_000 },
        description: `Prepaid bundle: ${t.bundleCredits} basic-score credits (${t.bundleDiscountPct} percent off list).`,
      },
      // The fleet card pack's 1176 credits at exactly the bundle's per-credit rate (42,500 units /
      // 229,500 lamports); the card pack rounds this to 50.00 USD.
      fleet: {
        price: { usdcUnits: 49_980_000, lamports: 269_892_000 },
        description: `Fleet bundle: ${t.fleetCredits} basic-score credits under one token for your agents (the fleet pack's terms, ${t.bundleDiscountPct} percent off list).`,
      },
    },
    // The bundle is already sold below list; the loyalty discount is not stacked on it.
    loyaltyDiscount: false,
  }),
} satisfies Record<string, Product>);

/** A product's key in {@link PRODUCTS}. */
export type ProductKey = keyof typeof PRODUCTS;

/**
 * A tier of a product.
 * @param product - the product
 * @param tier - tier key (the default tier when omitted)
 * @returns the tier
 * @throws Error when the product has no such tier (a programming error: tiers are validated first)
 */
export function tierOf(product: Product, tier: string = product.defaultTier): ProductTier {
  const found = product.tiers[tier];
  if (!found) throw new Error(`product ${product.id} has no tier ${tier}`);
  return found;
}

/**
 * The ledger's tier of a product tier: null for a product sold at one price.
 * @param tier - tier key
 * @returns the ledger tier
 */
export function ledgerTier(tier: string): string | null {
  return tier === SINGLE_TIER ? null : tier;
}

/** A card credit pack (section 8): bought by card at `POST /api/card/checkout`, credits on a bundle token. */
export interface CardPack {
  /** The pack id a checkout names in `pack`. */
  readonly id: string;
  /** The price as a decimal USD string, as published. */
  readonly priceUsd: string;
  /** The price in the currency's minor unit (cents): what the card processor charges and what a grant checks. */
  readonly amountCents: number;
  /** ISO currency code in lowercase, as the card processor writes it. */
  readonly currency: 'usd';
  /** Basic-score credits granted per settled payment (the purchase and each settled renewal). */
  readonly credits: number;
  /** Published discount against the basic session's list price. */
  readonly discountPct: number;
}

/** Card credit packs (one-time, or monthly with `auto_refill`), in manifest order. */
export const CARD_PACKS: readonly CardPack[] = Object.freeze([
  { id: 'starter', priceUsd: '5.00', amountCents: 500, currency: 'usd', credits: 105, discountPct: 5 },
  { id: 'builder', priceUsd: '20.00', amountCents: 2000, currency: 'usd', credits: 444, discountPct: 10 },
  { id: 'fleet', priceUsd: '50.00', amountCents: 5000, currency: 'usd', credits: 1176, discountPct: 15 },
] as const);

/** Renewal terms of card packs bought with `auto_refill: true` (section 8). */
export const CARD_RENEWAL_TERMS = Object.freeze({
  /** One renewal per calendar month after the purchase settled. */
  interval: 'month',
  /** Charge attempts per period: a failed renewal is never retried. */
  attemptsPerPeriod: 1,
});

/**
 * A card pack by id.
 * @param id - pack id (`starter`, `builder`, `fleet`)
 * @returns the pack, or undefined for an unknown id
 */
export function cardPack(id: string): CardPack | undefined {
  return CARD_PACKS.find((p) => p.id === id);
}

/**
 * The company program (section 4.4): one card payment buys one period of guidance for a company's
 * agents. The embedded-check credits are basic credits on a card bundle of the company's own, granted
 * by the card packs' grant path when the payment settles; the guide calls and sponsorship slots are
 * counted on the company's program token.
 */
export interface CompanyPlan {
  /** The plan id a company checkout records as the purchase's `pack`. */
  readonly id: string;
  /** The price as a decimal USD string, as published. */
  readonly priceUsd: string;
  /** The price in cents: what the card processor charges and what the grant checks. */
  readonly amountCents: number;
  /** ISO currency code in lowercase, as the card processor writes it. */
  readonly currency: 'usd';
  /** Embedded-check credits (basic credits on the company's bundle) granted when the payment settles. */
  readonly credits: number;
  /** `POST /api/aei/guide` calls with the company token in one period. */
  readonly guideCalls: number;
  /** Agents the company may sponsor in the pilot during the period. */
  readonly sponsorshipSlots: number;
  /** Length of the period, from the claim that activates it. */
  readonly periodDays: number;
}

/** The company program's one plan. */
export const COMPANY_PLAN: CompanyPlan = Object.freeze({
  id: 'aei-company',
  priceUsd: '250.00',
  amountCents: 25000,
  currency: 'usd',
  credits: 2000,
  guideCalls: 20000,
  sponsorshipSlots: 5,
  periodDays: 30,
} as const);

/**
 * The company plan by id.
 * @param id - plan id
 * @returns the plan, or undefined for any other id
 */
export function companyPlan(id: string): CompanyPlan | undefined {
  return id === COMPANY_PLAN.id ? COMPANY_PLAN : undefined;
}

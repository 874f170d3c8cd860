/** A published base quote: USDC atomic units (6 decimals) and legacy lamports. Integers, never floats. */
export interface Price {
  readonly usdcUnits: number;
  readonly lamports: number;
}

/** Base quotes of every paid product (interface description §8). The live 402 quote is authoritative. */
export const PRICES = Object.freeze({
  simulateBasic: { usdcUnits: 50_000, lamports: 270_000 },
  simulateDeep: { usdcUnits: 180_000, lamports: 950_000 },
  duelPerBot: { usdcUnits: 75_000, lamports: 400_000 },
  stressTest: { usdcUnits: 180_000, lamports: 950_000 },
  progress: { usdcUnits: 180_000, lamports: 950_000 },
  trainingDataset: { usdcUnits: 180_000, lamports: 950_000 },
  rewrite: { usdcUnits: 180_000, lamports: 950_000 },
  scriptCheck: { usdcUnits: 180_000, lamports: 950_000 },
  roleplay: { usdcUnits: 400_000, lamports: 2_160_000 },
  coaching: { usdcUnits: 540_000, lamports: 2_850_000 },
  bundle: { usdcUnits: 42_500_000, lamports: 229_500_000 },
  /**
   * The fleet plan: the fleet card pack's 1176 credits at exactly 15 percent off list, the bundle's
   * per-credit rate of 42,500 units / 229,500 lamports (the card pack rounds this to 50.00 USD).
   */
  fleet: { usdcUnits: 49_980_000, lamports: 269_892_000 },
} satisfies Record<string, Price>);

/** Product facts that go with the prices (§8 limits). */
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

/** Card credit packs (one-time, or monthly with `auto_refill`). Prices are decimal USD strings. */
export const CARD_PACKS = Object.freeze([
  { id: 'starter', priceUsd: '5.00', credits: 105, discountPct: 5 },
  { id: 'builder', priceUsd: '20.00', credits: 444, discountPct: 10 },
  { id: 'fleet', priceUsd: '50.00', credits: 1176, discountPct: 15 },
] as const);

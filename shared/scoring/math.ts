/** Clamps x into [lo, hi]. */
export function clamp(x: number, lo = 0, hi = 1): number {
  return x < lo ? lo : x > hi ? hi : x;
}

/** The logistic function. */
export function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

// The same `10 ** digits` values, computed once: the exponentiation showed up in profiles of the
// dozens of rounds per result.
const POWERS_OF_TEN = [0, 1, 2, 3, 4, 5, 6].map((digits) => 10 ** digits);

/** Rounds for output only (3 decimals by default); measures keep full precision. */
export function round(x: number, digits = 3): number {
  const f = POWERS_OF_TEN[digits] ?? 10 ** digits;
  return Math.round(x * f) / f;
}

/** A linear model stored as data: standardization, weights and intercept. */
export interface LinearModel {
  features: string[];
  mean: number[];
  scale: number[];
  weights: number[];
  intercept: number;
}

/**
 * Evaluates a standardized linear model on a feature record.
 * @param model - the fitted model
 * @param x - feature values by name (missing ones count as the training mean)
 * @returns the linear predictor and each feature's contribution
 */
export function linearPredict(model: LinearModel, x: Record<string, number>): { value: number; contributions: number[] } {
  let value = model.intercept;
  const contributions: number[] = new Array(model.features.length);
  for (let i = 0; i < model.features.length; i++) {
    const raw = x[model.features[i]];
    const z = raw === undefined ? 0 : (raw - model.mean[i]) / (model.scale[i] || 1);
    contributions[i] = model.weights[i] * z;
    value += contributions[i];
  }
  return { value, contributions };
}

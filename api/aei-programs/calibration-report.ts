import { krippendorffAlpha } from '../../shared/agreement/krippendorff-alpha';
import { spearman } from '../../shared/agreement/spearman';
import { MIN_PEOPLE } from '../../shared/agreement/suppression';
import { ENGINE_FIELD, SCALE_MAX, SCALE_MIN, SCALES, type Scale } from './rating-scales';
import type { CalibrationRating } from './wording-review.store';

/** Below this ordinal alpha, raters do not agree enough for their mean to judge the engine by. */
export const MIN_ALPHA = 0.667;

/** Raters an item needs before its mean rating is set against the engine. */
export const MIN_RATERS_PER_ITEM = 3;

/** One scale's row of the agreement table. */
export interface AgreementRow {
  dimension: Scale;
  engine_field: string;
  /** Ratings of the scale in the calibration set. */
  ratings: number;
  /** Distinct raters behind them. */
  raters: number;
  /** Items rated by at least two raters (alpha's units). */
  alpha_units: number;
  /** Krippendorff's alpha, ordinal; null when undefined. */
  alpha: number | null;
  /** Items with at least {@link MIN_RATERS_PER_ITEM} raters (Spearman's pairs). */
  items: number;
  /** Spearman's rho of the engine's value against the raters' mean over those items; null when undefined. */
  spearman: number | null;
  /** Its 95% interval (Fisher z); null when undefined. */
  ci95: { low: number; high: number } | null;
  /** Whether the scale counts as validated evidence: alpha at least {@link MIN_ALPHA}. */
  counts: boolean;
}

/** The agreement table over a calibration set. */
export interface AgreementTable {
  raters: number;
  items_rated: number;
  dimensions: AgreementRow[];
}

/**
 * Per scale: how far raters agree (ordinal alpha over every item rated at least twice), and how far
 * the engine's values follow the raters' mean on items with at least three raters (Spearman with
 * its interval). A scale counts only where alpha reaches {@link MIN_ALPHA}.
 * @param set - the calibration set
 * @returns the table
 */
export function agreementTable(set: readonly CalibrationRating[]): AgreementTable {
  const byItem = new Map<string, CalibrationRating[]>();
  for (const r of set) byItem.set(r.itemId, [...(byItem.get(r.itemId) ?? []), r]);
  const raters = new Set(set.map((r) => r.sessionId)).size;
  const dimensions = SCALES.map((scale): AgreementRow => {
    const units = [...byItem.values()].map((rs) => rs.map((r) => r.ratings[scale]));
    const alpha = krippendorffAlpha(units, 'ordinal');
    const rated = [...byItem.values()].filter((rs) => new Set(rs.map((r) => r.sessionId)).size >= MIN_RATERS_PER_ITEM);
    const engine = rated.map((rs) => rs[0].engine[scale]);
    const means = rated.map((rs) => rs.reduce((a, r) => a + r.ratings[scale], 0) / rs.length);
    const rho = spearman(engine, means);
    return {
      dimension: scale,
      engine_field: ENGINE_FIELD[scale],
      ratings: set.length,
      raters,
      alpha_units: alpha.units,
      alpha: alpha.alpha,
      items: rated.length,
      spearman: rho.rho,
      ci95: rho.ci95,
      counts: alpha.alpha !== null && alpha.alpha >= MIN_ALPHA,
    };
  });
  return { raters, items_rated: byItem.size, dimensions };
}

/**
 * The public form of the table: with fewer than five raters behind it, every figure of a row is
 * withheld (null) and the row says so, so that no published figure rests on a handful of people.
 * @param table - the full table
 * @returns the public table
 */
export function publicAgreementTable(table: AgreementTable) {
  const enough = table.raters >= MIN_PEOPLE;
  return {
    min_people: MIN_PEOPLE,
    min_alpha: MIN_ALPHA,
    min_raters_per_item: MIN_RATERS_PER_ITEM,
    scale: { min: SCALE_MIN, max: SCALE_MAX },
    raters: enough ? table.raters : null,
    items_rated: enough ? table.items_rated : null,
    suppressed: !enough,
    dimensions: table.dimensions.map((d) =>
      enough
        ? d
        : { ...d, ratings: null, raters: null, alpha_units: null, alpha: null, items: null, spearman: null, ci95: null, counts: false },
    ),
  };
}

import type { CertifiedDrill } from '../../shared/coaching/certificate';
import type { Pack } from '../../shared/coaching/packs';

/** One drill's standing in an enrollment. */
export interface DrillStanding {
  drill_id: string;
  title: string;
  target_profile: string;
  bar: number;
  /** Best EQ score over its scored attempts, or null before the first. */
  best_score: number | null;
  cleared: boolean;
  attempts_scored: number;
}

/** An enrollment's standing against its pack. */
export interface PackStanding {
  drills: DrillStanding[];
  drills_cleared: number;
  /** Mean of the drills' best scores (a drill never attempted counts 0), one decimal. */
  average_score: number;
  average_bar: number;
  average_cleared: boolean;
  /** Every drill bar and the average bar cleared: the certificate is earned. */
  complete: boolean;
}

const oneDecimal = (n: number) => Math.round(n * 10) / 10;

/**
 * Where an enrollment stands: per drill, its best score against its bar, then the average bar.
 * A drill's bar is cleared by a best score at or above it; the average bar likewise by the mean
 * of the best scores, where an unattempted drill counts 0.
 * @param pack - the enrollment's pack
 * @param best - best score by drill id
 * @param scored - scored attempts by drill id
 * @returns the standing
 */
export function standingOf(pack: Pack, best: ReadonlyMap<string, number>, scored: ReadonlyMap<string, number>): PackStanding {
  const drills = pack.drills.map((d) => {
    const bestScore = best.get(d.id) ?? null;
    return {
      drill_id: d.id,
      title: d.title,
      target_profile: d.target_profile,
      bar: d.bar,
      best_score: bestScore,
      cleared: bestScore !== null && bestScore >= d.bar,
      attempts_scored: scored.get(d.id) ?? 0,
    };
  });
  const average = oneDecimal(drills.reduce((s, d) => s + (d.best_score ?? 0), 0) / drills.length);
  const drillsCleared = drills.filter((d) => d.cleared).length;
  const averageCleared = average >= pack.average_bar;
  return {
    drills,
    drills_cleared: drillsCleared,
    average_score: average,
    average_bar: pack.average_bar,
    average_cleared: averageCleared,
    complete: drillsCleared === drills.length && averageCleared,
  };
}

/**
 * The drills of a complete standing as a certificate shows them.
 * @param standing - a complete standing
 * @returns the certified drills
 */
export function certifiedDrills(standing: PackStanding): CertifiedDrill[] {
  return standing.drills.map((d) => ({ drill_id: d.drill_id, title: d.title, target_profile: d.target_profile, bar: d.bar, best_score: d.best_score ?? 0 }));
}

/**
 * What `npm run eval` leaves behind for the public validation page: every figure it printed, by
 * dimension, with the data each came from and the command that reproduces it. The eval writes it to
 * eval-figures.json beside this file; the page and its JSON twin are built from that file alone, so
 * nothing on the page is written by hand.
 */

/** One printed figure (a line of the eval table). */
export interface EvalFigure {
  metric: string;
  dataset: string;
  n: number;
  /** The figure; null where it cannot be measured on the development data (printed as NaN). */
  value: number | null;
  /** The bar as text (">= 0.35"), empty when the row is informational. */
  target: string;
  /** Whether the bar is met; absent for an informational row. */
  pass?: boolean;
  /** True for an out-of-domain figure (a source, genre or generator the fit did not use). */
  out_of_domain: boolean;
}

/** A development data folder a section read, named by its folder and the title of its SOURCE.md. */
export interface EvalSource {
  folder: string;
  title: string;
}

/** One section of the eval: one dimension (or the advice checks). */
export interface EvalSection {
  dimension: string;
  sources: EvalSource[];
  figures: EvalFigure[];
}

/** The whole eval output. */
export interface EvalReport {
  /** The scorer the figures belong to (engine version + data hash). */
  scorer_version: string;
  /** The command that printed these figures. */
  command: string;
  sections: EvalSection[];
}

/** A line of the eval table as the eval makes it (scripts/eval/eval-row.ts). */
export interface EvalRowLike {
  metric: string;
  dataset: string;
  n: number;
  value: number;
  target: string;
  pass?: boolean;
}

/** The command that reproduces every figure. */
export const EVAL_COMMAND = 'npm run eval';

/**
 * Builds the report from the eval's rows (the eval's own row type is structurally an EvalFigure
 * without the domain flag, which the "OOD" prefix of its metric carries).
 * @param scorerVersion - the scorer version the eval ran
 * @param sections - per dimension, the data folders read and the printed rows
 * @returns the report, ready to be written as JSON
 */
export function buildEvalReport(
  scorerVersion: string,
  sections: readonly { dimension: string; sources: readonly EvalSource[]; rows: readonly EvalRowLike[] }[],
): EvalReport {
  return {
    scorer_version: scorerVersion,
    command: EVAL_COMMAND,
    sections: sections.map((s) => ({
      dimension: s.dimension,
      sources: [...s.sources],
      figures: s.rows.map((r) => ({
        metric: r.metric,
        dataset: r.dataset,
        n: r.n,
        value: Number.isFinite(r.value) ? Math.round(r.value * 1000) / 1000 : null,
        target: r.target,
        ...(r.pass === undefined ? {} : { pass: r.pass }),
        out_of_domain: r.metric.startsWith('OOD'),
      })),
    })),
  };
}

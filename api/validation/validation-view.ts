import type { EvalFigure, EvalReport, EvalSource } from '../../shared/validation/eval-report';

/** The path of the live agreement table of the program's raters (served by the programs family). */
export const HUMAN_AGREEMENT_PATH = '/api/validation/human-agreement';

/** One figure as the public page shows it. */
export interface PublicFigure {
  metric: string;
  dataset: string;
  n: number;
  value: number | null;
  target: string | null;
  pass: boolean | null;
}

/** One dimension: where its data came from, its out-of-domain figures first, then the in-domain ones. */
export interface PublicDimension {
  dimension: string;
  data: EvalSource[];
  out_of_domain: PublicFigure[];
  in_domain: PublicFigure[];
}

/** GET /api/validation.json. */
export interface PublicValidation {
  scorer_version: string;
  /** Whether the figures belong to the engine this service runs (false: they were printed by an earlier one). */
  current: boolean;
  command: string;
  how_to_reproduce: string;
  human_agreement: string;
  bars_met: number;
  bars: number;
  dimensions: PublicDimension[];
}

function publicFigure(f: EvalFigure): PublicFigure {
  return { metric: f.metric.replace(/^OOD /, ''), dataset: f.dataset, n: f.n, value: f.value, target: f.target || null, pass: f.pass ?? null };
}

/**
 * The public view of the eval's output: the same figures, grouped by dimension with the out-of-domain
 * ones first, nothing added by hand.
 * @param report - the eval's output (eval-figures.json)
 * @param runningVersion - the scorer version of this process
 * @returns the JSON twin of the page
 */
export function publicValidation(report: EvalReport, runningVersion: string): PublicValidation {
  const all = report.sections.flatMap((s) => s.figures).filter((f) => f.pass !== undefined);
  return {
    scorer_version: report.scorer_version,
    current: report.scorer_version === runningVersion,
    command: report.command,
    how_to_reproduce:
      `Check out this version of the service, put the development data sets beside it (or point HUMANLIKE_DEV_DATA at them; each ` +
      `folder's SOURCE.md says where it came from and under which licence) and run ${report.command}: it prints every figure below ` +
      `and rewrites shared/validation/eval-figures.json, which this page is built from.`,
    human_agreement: HUMAN_AGREEMENT_PATH,
    bars_met: all.filter((f) => f.pass).length,
    bars: all.length,
    dimensions: report.sections.map((s) => ({
      dimension: s.dimension,
      data: s.sources,
      out_of_domain: s.figures.filter((f) => f.out_of_domain).map(publicFigure),
      in_domain: s.figures.filter((f) => !f.out_of_domain).map(publicFigure),
    })),
  };
}

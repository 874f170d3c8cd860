import type { EvalReport } from './eval-report';
import data from './eval-figures.json';

/** The figures of the last `npm run eval` committed with the code (see eval-report.ts). */
export const EVAL_FIGURES = data as unknown as EvalReport;

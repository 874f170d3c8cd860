/** One line of the `npm run eval` table. */
export interface EvalRow {
  /** What is measured, e.g. "AUROC human_likeness". */
  metric: string;
  /** Dataset and slice, e.g. "fastdetect-gpt34 writing+xsum". */
  dataset: string;
  n: number;
  value: number;
  /** The bar from the issue, as text, e.g. ">= 0.85" (empty when informational). */
  target: string;
  /** True when value meets the bar (undefined when informational). */
  pass?: boolean;
}

/** Builds a row against a lower bound. */
export function atLeast(metric: string, dataset: string, n: number, value: number, bar: number): EvalRow {
  return { metric, dataset, n, value, target: `>= ${bar.toFixed(2)}`, pass: value >= bar };
}

/** Builds a row against an upper bound. */
export function atMost(metric: string, dataset: string, n: number, value: number, bar: number): EvalRow {
  return { metric, dataset, n, value, target: `<= ${bar.toFixed(2)}`, pass: value <= bar };
}

/** Builds an informational row with no bar. */
export function info(metric: string, dataset: string, n: number, value: number): EvalRow {
  return { metric, dataset, n, value, target: '' };
}

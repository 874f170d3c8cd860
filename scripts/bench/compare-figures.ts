// Two revisions' HTTP bench runs side by side: for each case (target and connections), each
// revision's median throughput, p50 and own CPU per call over the rounds, the head's change
// against the base as the median of the rounds' paired ratios, and the noise those figures carry
// on this machine: how far one revision's rounds spread among themselves. A change inside the
// noise is not a change this run can see.
import { ownCpuPerCall, type CaseCpu } from './case-cpu';
import { median } from './stats';

/** One case of one bench run, as BENCH_OUT writes it. */
export interface BenchCase extends CaseCpu {
  connections: number;
  rps: number;
  p50: number;
}

/** The figures compared. Higher is better only for throughput. */
export const COMPARED = ['rps', 'p50', 'cpu'] as const;
export type ComparedFigure = (typeof COMPARED)[number];

/** One figure of one case, both revisions. */
export interface FigureComparison {
  figure: ComparedFigure;
  base: number;
  head: number;
  /** head / base per round, paired by round. */
  ratios: number[];
  /** The median of `ratios`. */
  ratio: number;
  /** The larger of the two revisions' spreads among their own rounds (max / min - 1). */
  noise: number;
  /** 'one round' when there is no second round to measure the noise by. */
  verdict: 'within noise' | 'better' | 'worse' | 'one round';
}

/** One case (target x connections) of the comparison. */
export interface CaseComparison {
  target: string;
  connections: number;
  figures: FigureComparison[];
}

function valueOf(c: BenchCase, figure: ComparedFigure): number {
  if (figure === 'rps') return c.rps;
  if (figure === 'p50') return c.p50;
  return ownCpuPerCall(c);
}

function spread(xs: number[]): number {
  if (xs.length < 2) return 0;
  const lo = Math.min(...xs);
  return lo > 0 ? Math.max(...xs) / lo - 1 : Infinity;
}

/**
 * Compares the head's rounds with the base's, case by case. Round i of one is paired with round
 * i of the other (they ran next to each other); a case missing from either side is left out.
 * @param base - the base revision's runs, one array of cases per round
 * @param head - the head revision's runs, in the same order
 * @returns one comparison per case both sides measured in every round
 */
export function compareRuns(base: BenchCase[][], head: BenchCase[][]): CaseComparison[] {
  const rounds = Math.min(base.length, head.length);
  if (rounds === 0) return [];
  const find = (run: BenchCase[], target: string, connections: number) => run.find((c) => c.target === target && c.connections === connections);
  const out: CaseComparison[] = [];
  for (const first of base[0]) {
    const pairs: Array<[BenchCase, BenchCase]> = [];
    for (let i = 0; i < rounds; i += 1) {
      const b = find(base[i], first.target, first.connections);
      const h = find(head[i], first.target, first.connections);
      if (b && h) pairs.push([b, h]);
    }
    if (pairs.length < rounds) continue;
    const figures = COMPARED.map((figure): FigureComparison => {
      const bs = pairs.map(([b]) => valueOf(b, figure));
      const hs = pairs.map(([, h]) => valueOf(h, figure));
      const ratios = pairs.map((_, i) => hs[i] / bs[i]);
      const ratio = median(ratios);
      const noise = Math.max(spread(bs), spread(hs));
      const better = figure === 'rps' ? ratio > 1 : ratio < 1;
      const verdict = pairs.length < 2 ? 'one round' : Math.abs(ratio - 1) <= noise ? 'within noise' : better ? 'better' : 'worse';
      return { figure, base: median(bs), head: median(hs), ratios, ratio, noise, verdict };
    });
    out.push({ target: first.target, connections: first.connections, figures });
  }
  return out;
}

const UNITS: Record<ComparedFigure, string> = { rps: 'req/s', p50: 'ms p50', cpu: 'ms CPU/call' };

/**
 * The comparison as report lines.
 * @param comparisons - from compareRuns
 * @param baseName - the base revision's label
 * @param headName - the head revision's label
 * @returns lines to print
 */
export function formatComparison(comparisons: CaseComparison[], baseName: string, headName: string): string[] {
  const f = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(2));
  const pct = (x: number) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`;
  const lines = [`case             figure        ${baseName.padStart(10)} ${headName.padStart(10)}  head/base [rounds]             noise   verdict`];
  for (const c of comparisons) {
    for (const fig of c.figures) {
      lines.push(
        `${`${c.target} x${c.connections}`.padEnd(16)} ${UNITS[fig.figure].padEnd(13)} ${f(fig.base).padStart(10)} ${f(fig.head).padStart(10)}  ` +
          `${`${fig.ratio.toFixed(3)} [${fig.ratios.map((r) => r.toFixed(3)).join(', ')}]`.padEnd(30)} ${`±${pct(fig.noise).slice(1)}`.padStart(7)}   ${fig.verdict}`,
      );
    }
  }
  return lines;
}

// Two revisions' HTTP bench runs side by side: for each case (target and connections), each
// revision's median throughput, p50 and own CPU per call over the rounds, and the head's change
// against the base as the rounds' paired ratios (round i of one ran next to round i of the other,
// so both met the machine in about the same state). This machine's speed swings by half within
// minutes, more than each side's rounds agree among themselves, so the verdict asks only whether
// the rounds agree: a figure is worse (or better) when every round's ratio says so, and otherwise
// the rounds disagree and the run shows no change it can tell from the machine's swings.
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
  /** The lowest and highest of `ratios`. */
  range: [number, number];
  /** 'one round' when there is no second round to agree with. */
  verdict: 'rounds disagree' | 'better in every round' | 'worse in every round' | 'one round';
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
      const range: [number, number] = [Math.min(...ratios), Math.max(...ratios)];
      const higherIsBetter = figure === 'rps';
      const allAbove = range[0] > 1;
      const allBelow = range[1] < 1;
      let verdict: FigureComparison['verdict'] = 'rounds disagree';
      if (pairs.length < 2) verdict = 'one round';
      else if (allAbove || allBelow) verdict = allAbove === higherIsBetter ? 'better in every round' : 'worse in every round';
      return { figure, base: median(bs), head: median(hs), ratios, ratio, range, verdict };
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
  const lines = [`case             figure        ${baseName.padStart(10)} ${headName.padStart(10)}  head/base [each round]                     verdict`];
  for (const c of comparisons) {
    for (const fig of c.figures) {
      lines.push(
        `${`${c.target} x${c.connections}`.padEnd(16)} ${UNITS[fig.figure].padEnd(13)} ${f(fig.base).padStart(10)} ${f(fig.head).padStart(10)}  ` +
          `${`${fig.ratio.toFixed(3)} [${fig.ratios.map((r) => r.toFixed(3)).join(', ')}]`.padEnd(42)} ${fig.verdict}`,
      );
    }
  }
  return lines;
}

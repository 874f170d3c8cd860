import { expect } from 'chai';
import { compareRuns, formatComparison, type BenchCase } from '../../../../scripts/bench/compare-figures';

// A score case answering `rps` calls a second over 10 s with `cores` of the score web busy.
function scoreCase(connections: number, rps: number, p50: number, cores: number): BenchCase {
  return { target: 'score', connections, seconds: 10, ok: rps * 10, rps, p50, cpu: { 'score web': cores, 'bench client': 0.5 } };
}

describe('bench compare figures', () => {
  it('pairs rounds, takes the median of their ratios and calls a change only where every round agrees', () => {
    const base = [[scoreCase(1, 100, 10, 0.5)], [scoreCase(1, 110, 10, 0.5)], [scoreCase(1, 105, 10, 0.5)]];
    const head = [[scoreCase(1, 102, 20, 0.5)], [scoreCase(1, 108, 20, 0.5)], [scoreCase(1, 100, 20, 0.5)]];
    const [c] = compareRuns(base, head);
    expect(c).to.include({ target: 'score', connections: 1 });
    const rps = c.figures.find((f) => f.figure === 'rps')!;
    expect(rps.base).to.equal(105);
    expect(rps.head).to.equal(102);
    expect(rps.ratios.map((r) => +r.toFixed(4))).to.deep.equal([1.02, 0.9818, 0.9524]);
    expect(rps.ratio).to.be.closeTo(0.9818, 1e-4);
    expect(rps.range.map((r) => +r.toFixed(4))).to.deep.equal([0.9524, 1.02]);
    expect(rps.verdict).to.equal('rounds disagree');
    // p50 doubled in every round: worse, whatever the spread.
    expect(c.figures.find((f) => f.figure === 'p50')).to.deep.include({ ratio: 2, range: [2, 2], verdict: 'worse in every round' });
    // Own CPU per call counts the score web (0.5 cores x 10 s / calls), not the bench client.
    const cpu = c.figures.find((f) => f.figure === 'cpu')!;
    expect(cpu.base).to.be.closeTo(1000 * 5 / 1050, 1e-9);
    expect(cpu.verdict).to.equal('rounds disagree');
  });

  it('calls a lower throughput worse and a lower latency better', () => {
    const base = [[scoreCase(50, 200, 30, 1)], [scoreCase(50, 200, 30, 1)]];
    const head = [[scoreCase(50, 150, 20, 1)], [scoreCase(50, 150, 20, 1)]];
    const verdicts = Object.fromEntries(compareRuns(base, head)[0].figures.map((f) => [f.figure, f.verdict]));
    expect(verdicts).to.deep.equal({ rps: 'worse in every round', p50: 'better in every round', cpu: 'worse in every round' });
  });

  it('says a single round has nothing to agree with, and leaves out a case one side did not run in every round', () => {
    const one = compareRuns([[scoreCase(1, 100, 10, 0.5)]], [[scoreCase(1, 50, 10, 0.5)]]);
    expect(one[0].figures.every((f) => f.verdict === 'one round')).to.equal(true);
    const missing = compareRuns([[scoreCase(1, 100, 10, 0.5), scoreCase(50, 1, 1, 1)], [scoreCase(1, 100, 10, 0.5)]], [[scoreCase(1, 100, 10, 0.5)], [scoreCase(1, 100, 10, 0.5)]]);
    expect(missing.map((c) => c.connections)).to.deep.equal([1]);
  });

  it('prints one line per case and figure with both sides\' labels', () => {
    const lines = formatComparison(compareRuns([[scoreCase(1, 100, 10, 0.5)]], [[scoreCase(1, 50, 10, 0.5)]]), 'aaaaaaa', 'bbbbbbb');
    expect(lines).to.have.length(4);
    expect(lines[0]).to.contain('aaaaaaa').and.contain('bbbbbbb');
    expect(lines[1]).to.match(/^score x1 +req\/s +100 +50\.00 +0\.500 \[0\.500\]/);
  });
});

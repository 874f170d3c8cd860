import { expect } from 'chai';
import runCapacityBenchmark from '../../../../../api/health/threads/capacity.thread';
import { SCORER_VERSION } from '../../../../../shared/scoring/version';

describe('capacity benchmark thread', function () {
  it('counts iterations in characters of reply text: it scores whole samples until they reach that many', function () {
    const run = runCapacityBenchmark({ iterations: 2000 });
    expect(run).to.include({ iterations: 2000, scorer_version: SCORER_VERSION });
    expect(run.characters_scored).to.be.at.least(2000);
    expect(run.scores).to.be.within(2, 2000 / 10);
    // Exactly as many characters gives the same scores; one more needs one more score.
    expect(runCapacityBenchmark({ iterations: run.characters_scored }).scores).to.equal(run.scores);
    expect(runCapacityBenchmark({ iterations: run.characters_scored + 1 }).scores).to.equal(run.scores + 1);
  });

  it('scores once for one iteration, and about a thousand times at most for the maximum', function () {
    expect(runCapacityBenchmark({ iterations: 1 }).scores).to.equal(1);
    const max = runCapacityBenchmark({ iterations: 100_000 });
    expect(max.characters_scored).to.be.at.least(100_000);
    expect(max.scores).to.be.within(100, 1_000);
    expect(max.p50_ms).to.be.at.most(max.p99_ms);
  });
});

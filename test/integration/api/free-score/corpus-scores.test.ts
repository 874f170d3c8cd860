import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { createCorpusScoreWriter } from '../../../../api/free-score/corpus-scores';
import { reserveFreeRound } from '../../../../api/free-score/free-rounds';
import { createLogger } from '../../../../shared/logger';
import { scoreText } from '../../../../shared/scoring';
import { startTestStack, type TestStack } from '../../../helpers/stack';

const RULES = { scoreLimit: 1_000, wishlistRequiredFrom: 1_001 };
const hash = (n: number) => createHash('sha256').update(String(n)).digest('hex');

describe('the free corpus score writer', function () {
  let stack: TestStack;
  const logLines: string[] = [];
  const logger = () =>
    createLogger(
      { log: { ...stack.config.log, level: 'error' } },
      'test',
      new Writable({
        write(chunk: Buffer, _enc, done) {
          logLines.push(chunk.toString());
          done();
        },
      }),
    );

  before(async function () {
    stack = await startTestStack('corpus-scores', { worker: false });
  });
  after(async function () {
    await stack?.close();
  });
  beforeEach(async function () {
    await stack.truncate();
    logLines.length = 0;
  });

  async function reserve(n: number, text: string): Promise<string> {
    const r = await reserveFreeRound(stack.deps.dataSource, hash(n), RULES, { text, profile: 'terse-senior-engineer' }, `free-corpus-test-${n}`);
    if (!r.ok) throw new Error('not reserved');
    return r.corpusEntryId;
  }

  it('writes every score recorded while a write was in flight in one statement, each on its own row', async function () {
    const texts = Array.from({ length: 40 }, (_, i) => `reply number ${i}: sure, ${'really '.repeat(i % 7)}happy to help with that tonight`);
    const ids = await Promise.all(texts.map((t, i) => reserve(i + 1, t)));
    const scores = texts.map((text) => scoreText({ text, profile: 'terse-senior-engineer', delaySeconds: 30 }));
    const writer = createCorpusScoreWriter(stack.deps.dataSource, logger());
    // Count the writer's statements on the real pool (every call goes through unchanged).
    const pool = (stack.deps.dataSource.driver as unknown as { master: { query: (...args: unknown[]) => unknown } }).master;
    const query = pool.query;
    let writes = 0;
    pool.query = function (this: unknown, ...args: unknown[]) {
      if ((args[0] as { name?: string } | undefined)?.name === 'free_corpus_write_scores') writes++;
      return query.apply(this, args);
    };
    try {
      ids.forEach((id, i) => writer.record(id, scores[i]));
      await writer.drain();
    } finally {
      pool.query = query;
    }
    // The first score is written at once; the 39 recorded while it was in flight go in one more statement.
    expect(writes).to.equal(2);
    const rows = (await stack.deps.dataSource.query('SELECT id, text, eq_score, human_likeness, passed, scorer_version, scored_at FROM free_corpus_entries')) as Array<{
      id: string;
      text: string;
      eq_score: number;
      human_likeness: number;
      passed: boolean;
      scorer_version: string;
      scored_at: Date | null;
    }>;
    expect(rows).to.have.length(40);
    for (const row of rows) {
      const score = scores[texts.indexOf(row.text)];
      expect(row).to.include({ eq_score: score.result?.eq_score, human_likeness: score.human_likeness, passed: score.result?.passed, scorer_version: score.scorer_version });
      expect(row.scored_at).to.be.instanceOf(Date);
    }
    expect(logLines).to.deep.equal([]);
  });

  it('logs a failed write and goes on writing later scores', async function () {
    const id = await reserve(1, 'fine by me, see you then');
    const score = scoreText({ text: 'fine by me, see you then', profile: 'terse-senior-engineer' });
    const writer = createCorpusScoreWriter(stack.deps.dataSource, logger());
    writer.record('not-a-uuid', score);
    await writer.drain();
    writer.record(id, score);
    await writer.drain();
    expect(logLines.join('')).to.contain('free corpus scores not written');
    const rows = (await stack.deps.dataSource.query('SELECT human_likeness FROM free_corpus_entries WHERE id = $1', [id])) as Array<{ human_likeness: number }>;
    expect(rows[0].human_likeness).to.equal(score.human_likeness);
  });
});

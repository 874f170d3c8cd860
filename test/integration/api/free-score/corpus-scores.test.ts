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

  // Counts the writer's statements on the real pool (every call goes through unchanged).
  async function countingWrites<T>(run: () => Promise<T>): Promise<{ result: T; writes: number }> {
    const pool = (stack.deps.dataSource.driver as unknown as { master: { query: (...args: unknown[]) => unknown } }).master;
    const query = pool.query;
    let writes = 0;
    pool.query = function (this: unknown, ...args: unknown[]) {
      if ((args[0] as { name?: string } | undefined)?.name === 'free_corpus_write_scores') writes++;
      return query.apply(this, args);
    };
    try {
      return { result: await run(), writes };
    } finally {
      pool.query = query;
    }
  }

  type CorpusRow = { id: string; text: string; eq_score: number; human_likeness: number; passed: boolean; scorer_version: string; scored_at: Date | null };
  const corpusRows = async () =>
    (await stack.deps.dataSource.query('SELECT id, text, eq_score, human_likeness, passed, scorer_version, scored_at FROM free_corpus_entries')) as CorpusRow[];

  async function reserveScored(count: number) {
    const texts = Array.from({ length: count }, (_, i) => `reply number ${i}: sure, ${'really '.repeat(i % 7)}happy to help with that tonight`);
    const ids = await Promise.all(texts.map((t, i) => reserve(i + 1, t)));
    const scores = texts.map((text) => scoreText({ text, profile: 'terse-senior-engineer', delaySeconds: 30 }));
    return { texts, ids, scores };
  }

  function expectScored(rows: CorpusRow[], texts: string[], scores: ReturnType<typeof scoreText>[]) {
    expect(rows).to.have.length(texts.length);
    for (const row of rows) {
      const score = scores[texts.indexOf(row.text)];
      expect(row).to.include({ eq_score: score.result?.eq_score, human_likeness: score.human_likeness, passed: score.result?.passed, scorer_version: score.scorer_version });
      expect(row.scored_at).to.be.instanceOf(Date);
    }
  }

  it('gathers the scores recorded within its window and writes them in one statement, without being drained', async function () {
    const { texts, ids, scores } = await reserveScored(40);
    const writer = createCorpusScoreWriter(stack.deps.dataSource, logger(), 150);
    const { writes } = await countingWrites(async () => {
      ids.slice(0, 20).forEach((id, i) => writer.record(id, scores[i]));
      await new Promise((resolve) => setTimeout(resolve, 30));
      ids.slice(20).forEach((id, i) => writer.record(id, scores[20 + i]));
      // Nothing is written before the window closes; everything right after.
      expect((await corpusRows()).filter((r) => r.scored_at !== null)).to.have.length(0);
      const deadline = Date.now() + 5_000;
      while ((await corpusRows()).some((r) => r.scored_at === null) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(writes).to.equal(1);
    expectScored(await corpusRows(), texts, scores);
    expect(logLines).to.deep.equal([]);
  });

  it('writes the scores recorded while a write is in flight in one more statement, and drain waits for all of them', async function () {
    const { texts, ids, scores } = await reserveScored(40);
    const writer = createCorpusScoreWriter(stack.deps.dataSource, logger(), 60_000);
    const { writes } = await countingWrites(async () => {
      writer.record(ids[0], scores[0]);
      const first = writer.drain(); // writes the first score at once, whatever the window
      ids.slice(1).forEach((id, i) => writer.record(id, scores[1 + i]));
      await first;
      await writer.drain();
    });
    expect(writes).to.equal(2);
    expectScored(await corpusRows(), texts, scores);
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

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { DESCRIBED_ANSWERS, differenceFromShown, examplesOf, fillIn } from '../../../../scripts/readme/live-examples';
import { LIVE_FILES } from '../../../../scripts/readme/run-live-examples';

const ROOT = path.resolve(__dirname, '../../../..');
const FILL = { url: 'http://127.0.0.1:4100', privateKey: `0x${'ab'.repeat(32)}`, asset: `0x${'5f'.repeat(20)}` };

describe('README live examples', function () {
  it('finds each sh command but the quick start, with the answer shown right below it', function () {
    const doc = [
      '```sh', 'npm install && npm start', '```', '',
      '```sh', 'curl localhost:3000/api/stats', '```', '', 'Its answer:', '', '```json', '{"a": 1}', '```', '',
      '```sh', 'curl -X POST localhost:3000/api/wishlist', '```', '', 'Some prose.', 'More prose.', '', '```json', '{"b": 2}', '```',
    ].join('\n');
    const found = examplesOf(doc, 'X.md');
    expect(found.map((e) => e.where)).to.deep.equal(['X.md:5', 'X.md:15']);
    expect(found[0]).to.deep.include({ command: 'curl localhost:3000/api/stats', shown: { lang: 'json', text: '{"a": 1}' } });
    // Two lines of prose between them: the block below is not this command's answer.
    expect(found[1].shown).to.equal(undefined);
  });

  it('fills in only what the reader is told to: the printed key and test USDC, and the stack\'s address', function () {
    const pay = 'HUMANLIKE_PRIVATE_KEY=0x… npx humanlike pay --asset <the test USDC npm start printed> --deep \'hi\'';
    expect(fillIn(pay, FILL)).to.equal(`HUMANLIKE_PRIVATE_KEY=${FILL.privateKey} npx humanlike pay --url http://127.0.0.1:4100 --asset ${FILL.asset} --deep 'hi'`);
    expect(fillIn('curl -s http://localhost:3000/api/card/checkout; curl localhost:3000/api/score', FILL)).to.equal(
      'curl -s http://127.0.0.1:4100/api/card/checkout; curl http://127.0.0.1:4100/api/score',
    );
    // On the CLI's default address nothing is added.
    expect(fillIn(pay, { ...FILL, url: 'http://localhost:3000' })).not.to.contain('--url');
  });

  it('matches text line by line with … standing for what differs at each call', function () {
    const shown = { lang: 'text', text: 'EQ score 83 (passed)\nResult id: …; code HL-…\nSigned to 0x7099…79C8' };
    expect(differenceFromShown('EQ score 83 (passed)\nResult id: 4f1e; code HL-9Z\nSigned to 0x70997970C51812dc3A010C7d01b50e0d17dc79C8\n', shown)).to.equal(undefined);
    expect(differenceFromShown('EQ score 82 (passed)\nResult id: 4f1e; code HL-9Z\nSigned to 0x7099AA79C8', shown)).to.match(/^line 1: expected/);
    expect(differenceFromShown('EQ score 83 (passed)\nResult id: 4f1e; code HL-9Z', shown)).to.match(/^line 3: .*printed nothing more/);
    expect(differenceFromShown('EQ score 83 (passed)\nResult id: x; code HL-y\nSigned to 0x7099…79C8\nextra', shown)).to.match(/^line 4: printed an extra line/);
    // Regular-expression characters in the document are literal.
    expect(differenceFromShown('a+b (c)', { lang: 'text', text: 'a+b (c)' })).to.equal(undefined);
    expect(differenceFromShown('aab (c)', { lang: 'text', text: 'a+b (c)' })).to.not.equal(undefined);
  });

  it('matches JSON by value, keys the document leaves out allowed, "…" standing for any value', function () {
    const shown = { lang: 'json', text: JSON.stringify({ score: { eq_score: 83, window: [31.6, 184.2] }, free_tier: { used: 1, corpus: '…' } }, null, 2) };
    const actual = { score: { eq_score: 83, window: [31.6, 184.2], measures: {} }, free_tier: { used: 1, corpus: { kept: true } } };
    expect(differenceFromShown(JSON.stringify(actual), shown)).to.equal(undefined);
    expect(differenceFromShown(JSON.stringify({ ...actual, free_tier: { used: 2, corpus: 1 } }), shown)).to.equal('$.free_tier.used: expected 1, got 2');
    expect(differenceFromShown(JSON.stringify({ ...actual, free_tier: { used: 1 } }), shown)).to.equal('$.free_tier.corpus: missing');
    expect(differenceFromShown(JSON.stringify({ ...actual, score: { eq_score: 83, window: [31.6] } }), shown)).to.match(/^\$\.score\.window: expected/);
    expect(differenceFromShown('not json', shown)).to.match(/^printed no JSON/);
  });

  it('has, for every command of the documents it runs, either a shown answer or a described check', function () {
    const examples = LIVE_FILES.flatMap((file) => examplesOf(readFileSync(path.join(ROOT, file), 'utf8'), file));
    expect(examples.length).to.be.at.least(8);
    const unchecked = examples.filter((e) => !e.shown && !DESCRIBED_ANSWERS.some((d) => d.calls.test(e.command)));
    expect(unchecked.map((e) => e.where)).to.deep.equal([]);
    // Every generated example's command is run with its answer.
    expect(examples.filter((e) => e.shown).length).to.be.at.least(6);
  });
});

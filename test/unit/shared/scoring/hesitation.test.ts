import weights from '../../../../shared/scoring/weights/hesitation.json';
import { expect } from 'chai';
import fc from 'fast-check';
import { analyze } from '../../../../shared/scoring/analyze';
import { measureHesitation } from '../../../../shared/scoring/hesitation';
import type { DimensionMeasure } from '../../../../shared/scoring/measure-types';
import { expectSpansSliceText } from '../../../helpers/measure-assertions';

function hesitation(text: string): DimensionMeasure {
  return measureHesitation(analyze(text));
}

function spansOf(m: DimensionMeasure, feature: string): string[] {
  return m.contributions.find((c) => c.feature === feature)?.spans.map((s) => s.text) ?? [];
}

/** A reply with no cue reads at the prior rate alone. */
const BASE = 1 - Math.exp(-weights.priorRate / weights.rateScale);

describe('measureHesitation', () => {
  describe('softening (mitigation as people rate it)', () => {
    // [softened, bald]: the same request or reply with and without mitigation.
    const cases: [string, string][] = [
      ['Could you send me the Q2 numbers when you get a chance?', 'Send me the Q2 numbers.'],
      ['Thank you for flagging this; I understand the delay is frustrating.', 'The delay is your problem.'],
      ["Let's work through the access approvals together.", 'Fix the access approvals.'],
      ["I'm sorry, but I need the report a bit earlier.", 'I need the report earlier.'],
    ];
    for (const [soft, bald] of cases) {
      it(`reads "${soft}" as more hesitant than "${bald}"`, () => {
        const m = hesitation(soft);
        expect(m.value).to.be.greaterThan(hesitation(bald).value);
        expect(spansOf(m, 'softening').length, soft).to.be.greaterThan(0);
      });
    }

    it('counts a polite "could you" as softening, not as doubt, and an epistemic "could be" as a hedge', () => {
      expect(spansOf(hesitation('Could you check the logs?'), 'softening')).to.deep.equal(['Could you']);
      expect(spansOf(hesitation('Could you check the logs?'), 'hedge')).to.deep.equal([]);
      expect(spansOf(hesitation('It could be the cache.'), 'hedge')).to.deep.equal(['could']);
    });
  });

  it('rates a hedged, trailing guess above a flat statement', () => {
    const hedged = hesitation('I think maybe it could be the cache...');
    const flat = hesitation('It is the cache.');
    expect(hedged.value).to.be.greaterThan(flat.value);
    expect(hedged.value).to.be.greaterThan(0.9);
    expect(flat.value).to.equal(BASE);
    expect(spansOf(hedged, 'hedge')).to.include.members(['think', 'maybe', 'could']);
    expect(spansOf(hedged, 'trailing-off')).to.deep.equal(['...']);
  });

  it('does not count "think about X" as a hedge, but counts "I think X"', () => {
    expect(spansOf(hesitation('Think about the cache.'), 'hedge')).to.deep.equal([]);
    expect(spansOf(hesitation('I think about it every day.'), 'hedge')).to.deep.equal([]);
    expect(spansOf(hesitation('You should think of a name first.'), 'hedge')).to.deep.equal([]);
    expect(spansOf(hesitation("I think it's the cache."), 'hedge')).to.deep.equal(['think']);
    expect(spansOf(hesitation("I don't really think it's the cache."), 'hedge')).to.deep.equal(['think']);
  });

  it('skips non-epistemic uses of hedge words', () => {
    expect(hesitation('It shipped in May 2021.').value).to.equal(BASE);
    expect(hesitation('Send it as soon as possible.').value).to.equal(BASE);
    expect(hesitation('What kind of database is it?').value).to.equal(BASE);
    expect(hesitation('The talk is about caching.').value).to.equal(BASE);
    expect(hesitation("I can't wait for Friday.").value).to.equal(BASE);
    expect(spansOf(hesitation('It takes about 5 minutes.'), 'hedge')).to.deep.equal(['about']);
    expect(spansOf(hesitation("It's kind of slow."), 'hedge')).to.deep.equal(['kind of']);
  });

  it('does not count polite "would"/"could" as doubt (a request put as a question softens instead)', () => {
    expect(spansOf(hesitation('Would you like me to send the agenda?'), 'hedge')).to.deep.equal([]);
    expect(hesitation('Would you like me to send the agenda?').value).to.equal(BASE);
    expect(spansOf(hesitation('I would be glad to book it for you.'), 'hedge')).to.deep.equal([]);
    expect(spansOf(hesitation('Could you send me the logs?'), 'hedge')).to.deep.equal([]);
    expect(spansOf(hesitation('Restarting would fix it, I guess.'), 'hedge')).to.deep.equal(['would', 'guess']);
  });

  it('finds fillers, self-repairs, restarts, tag questions and trailing dashes', () => {
    const m = hesitation("Um, the port is 8080, right? I mean 8081. I- I forgot. Wait, no, the the other one. I was going to—");
    expect(spansOf(m, 'filler')).to.deep.equal(['Um']);
    expect(spansOf(m, 'tag-question')).to.deep.equal([', right?']);
    expect(spansOf(m, 'self-repair')).to.include.members(['I mean', 'Wait']);
    expect(spansOf(m, 'restart')).to.deep.equal(['I- I', 'the the']);
    expect(spansOf(m, 'trailing-off')).to.deep.equal(['—']);
  });

  it('leaves ordinary reduplication and mid-clause "actually" alone', () => {
    expect(hesitation('No no, it is very very fast.').value).to.equal(BASE);
    expect(hesitation('I actually like the new build.').value).to.equal(BASE);
    expect(spansOf(hesitation('Actually, it was the cache.'), 'self-repair')).to.deep.equal(['Actually']);
  });

  it('maps the weighted rate plus the prior through 1 - exp(-(r + prior) / scale)', () => {
    // One hedge in ten words: r = 10 per 100 words.
    const m = hesitation('Maybe we should move the meeting to next Tuesday afternoon.');
    expect(m.value).to.be.closeTo(1 - Math.exp(-(10 + weights.priorRate) / weights.rateScale), 1e-9);
  });

  it('explains the value: deltas add up to it and are sorted by size, then name', () => {
    const m = hesitation('Hmm, I guess it might be the config... or rather the env file, you know?');
    expect(BASE + m.contributions.reduce((s, c) => s + c.delta, 0)).to.be.closeTo(m.value, 1e-9);
    for (let i = 1; i < m.contributions.length; i++) {
      const prev = m.contributions[i - 1];
      const cur = m.contributions[i];
      expect(Math.abs(prev.delta) > Math.abs(cur.delta) || (Math.abs(prev.delta) === Math.abs(cur.delta) && prev.feature <= cur.feature)).to.equal(true);
    }
  });

  it('gives spans that slice the original text exactly, with curly quotes and emoji', () => {
    const text = 'Hmm 🤔 I’m not sure… I guess it’s probably the cache, isn’t it?';
    const m = hesitation(text);
    expect(m.contributions.length).to.be.greaterThan(0);
    expectSpansSliceText(text, m);
    expect(spansOf(m, 'tag-question')).to.deep.equal([', isn’t it?']);
  });

  it('is deterministic', () => {
    const text = 'I think maybe it could be the cache... um, or rather the CDN?';
    expect(JSON.stringify(hesitation(text))).to.equal(JSON.stringify(hesitation(text)));
  });

  it('gives a finite value in 0..1 for empty and whitespace text', () => {
    for (const text of ['', ' ', '\n\n']) {
      const m = hesitation(text);
      expect(Number.isFinite(m.value)).to.equal(true);
      expect(m.value).to.be.within(0, 1);
    }
  });

  it('keeps the value in 0..1 and spans exact for arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const m = hesitation(text);
        expect(m.value).to.be.within(0, 1);
        expectSpansSliceText(text, m);
      }),
      { numRuns: 150, seed: 11 },
    );
  });
});

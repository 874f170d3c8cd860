import { expect } from 'chai';
import fc from 'fast-check';
import { analyze } from '../../../../shared/scoring/analyze';
import { FORMALITY_FEATURES, FORMALITY_VERSION, formalityFeatures, measureFormality } from '../../../../shared/scoring/formality';
import { expectSortedByImpact, expectSpansSliceText } from '../../../helpers/measure-assertions';

function formality(text: string): number {
  return measureFormality(analyze(text)).value;
}

describe('measureFormality', () => {
  it('rates a complete formal sentence above chat shorthand', () => {
    const formal = formality('The committee will review the revised budget proposal at its next scheduled meeting.');
    expect(formal).to.be.greaterThan(formality('lol ya idk'));
    expect(formal).to.be.greaterThan(0.4);
  });

  it('drops when the same sentence is lowercased', () => {
    expect(formality('we moved the review to thursday afternoon.')).to.be.lessThan(formality('We moved the review to Thursday afternoon.'));
  });

  it('drops with exclamation marks', () => {
    expect(formality('We moved the review to Thursday afternoon!!!')).to.be.lessThan(formality('We moved the review to Thursday afternoon.'));
  });

  it('drops with slang and chat abbreviations', () => {
    expect(formality('Tbh we gonna move the review to Thursday lol.')).to.be.lessThan(formality('Honestly, we will move the review to Thursday.'));
  });

  it('drops with contractions', () => {
    expect(formality("We'll send it, and it's fine if they don't reply.")).to.be.lessThan(formality('We will send it, and it is fine if they do not reply.'));
  });

  it('drops without terminal punctuation or with an ellipsis', () => {
    const base = formality('The report covers the second quarter.');
    expect(formality('The report covers the second quarter')).to.be.lessThan(base);
    expect(formality('The report covers the second quarter...')).to.be.lessThan(base);
  });

  it('counts apostrophe-less contractions as informal', () => {
    expect(formalityFeatures(analyze('i dont know why youre here')).informal).to.be.greaterThan(0);
  });

  it('does not count a possessive as a contraction', () => {
    expect(formalityFeatures(analyze("The agency's report arrived.")).contractions).to.equal(0);
    expect(formalityFeatures(analyze("It's the agency report.")).contractions).to.be.greaterThan(0);
  });

  it('averages features per sentence, so more sentences of the same kind change nothing', () => {
    const one = formalityFeatures(analyze('The meeting starts at noon.'));
    const three = formalityFeatures(analyze('The meeting starts at noon. The meeting starts at noon. The meeting starts at noon.'));
    for (const f of FORMALITY_FEATURES) expect(three[f], f).to.be.closeTo(one[f], 1e-9);
  });

  it('keeps every value in 0..1 and every span an exact slice of the text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const m = measureFormality(analyze(text));
        expect(Number.isFinite(m.value)).to.equal(true);
        expect(m.value).to.be.within(0, 1);
        expectSpansSliceText(text, m);
      }),
      { numRuns: 200, seed: 7 },
    );
  });

  it('keeps spans exact around curly apostrophes, emoji and surrogate pairs', () => {
    const text = 'I’m SO done lol 😂😂 … see u tmrw!! 𝒳 ok';
    const m = measureFormality(analyze(text));
    expectSpansSliceText(text, m);
    const informal = m.contributions.find((c) => c.feature === 'informal');
    expect(informal?.spans.map((s) => s.text)).to.include('lol');
  });

  it('sorts contributions by |delta| descending, then by feature name', () => {
    const m = measureFormality(analyze('hey!! so i think we should totally move the meeting... right?'));
    expectSortedByImpact(m);
  });

  it('adds up: clamp(intercept + sum of deltas) is the value', () => {
    const m = measureFormality(analyze('Thanks, I will look into the logs tomorrow morning.'));
    const total = m.contributions.reduce((s, c) => s + c.delta, 0);
    const empty = measureFormality(analyze('')).value;
    expect(Math.min(1, Math.max(0, empty + total))).to.be.closeTo(m.value, 1e-9);
  });

  it('is deterministic', () => {
    const text = 'Well, I guess we could try again tomorrow?! No idea tbh.';
    expect(JSON.stringify(measureFormality(analyze(text)))).to.equal(JSON.stringify(measureFormality(analyze(text))));
  });

  it('gives empty text a finite neutral value without contributions', () => {
    const m = measureFormality(analyze(''));
    expect(m.value).to.be.within(0, 1);
    expect(m.contributions).to.deep.equal([]);
    expect(measureFormality(analyze('   \n  ')).value).to.be.within(0, 1);
  });

  it('carries a version string', () => {
    expect(FORMALITY_VERSION).to.match(/^formality-\d+\.\d+\.\d+/);
  });
});

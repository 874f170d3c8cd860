import { expect } from 'chai';
import fc from 'fast-check';
import { analyze } from '../../../../shared/scoring/analyze';
import { DIRECTNESS_VERSION, directnessFeatures, measureDirectness } from '../../../../shared/scoring/directness';
import weights from '../../../../shared/scoring/weights/directness.json';
import { STRATEGY_SIDES } from '../../../../scripts/fit/fit-directness';
import { expectSortedByImpact, expectSpansSliceText } from '../../../helpers/measure-assertions';

function directness(text: string, incoming?: string): number {
  return measureDirectness(analyze(text), incoming === undefined ? undefined : analyze(incoming)).value;
}

function features(text: string, incoming?: string): ReturnType<typeof directnessFeatures> {
  return directnessFeatures(analyze(text), incoming === undefined ? undefined : analyze(incoming));
}

describe('measureDirectness', () => {
  it('rates a bare imperative above a hedged, grateful request', () => {
    const bald = directness('Restart the server.');
    const mitigated = directness("Would you mind possibly restarting the server, if it's not too much trouble? Thanks!");
    expect(bald).to.be.greaterThan(mitigated);
    expect(bald).to.be.greaterThan(0.5);
    expect(mitigated).to.be.lessThan(0.2);
  });

  it('drops with each softening strategy added to the same request', () => {
    const bare = directness('Send me the log file.');
    expect(directness('Could you send me the log file?')).to.be.lessThan(bare);
    expect(directness('Send me the log file. Thanks!')).to.be.lessThan(bare);
    expect(directness('Sorry, send me the log file.')).to.be.lessThan(bare);
    expect(directness('Hi, send me the log file.')).to.be.lessThan(bare);
    expect(directness('I was wondering if you could send me the log file.')).to.be.lessThan(bare);
  });

  it('rises with a why-question, a "so" start and factuality markers', () => {
    const neutral = directness('The log file is on the shared drive.');
    expect(directness('Why is the log file on the shared drive?')).to.be.greaterThan(neutral);
    expect(directness('So the log file is actually on the shared drive.')).to.be.greaterThan(neutral);
  });

  it('detects imperatives after lead-ins and negative imperatives, but not subject-less statements', () => {
    expect(features('Please just check the logs.').imperative).to.equal(1);
    expect(features("Don't touch the config.").imperative).to.equal(1);
    expect(features('Hope that helps.').imperative).to.equal(0);
    expect(features('Sounds good to me.').imperative).to.equal(0);
    expect(features('Know what I mean?').imperative).to.equal(0);
  });

  it('tells "please" first from "please" later', () => {
    expect(features('Please fix the link.').pleaseStart).to.be.greaterThan(0);
    expect(features('Please fix the link.').please).to.equal(0);
    expect(features('Could you please fix the link?').please).to.be.greaterThan(0);
  });

  it('reads hedging as mitigation only through the hesitation measure', () => {
    const plain = directness('The log file is on the shared drive.');
    const hedged = measureDirectness(analyze('The log file is probably on the shared drive, maybe.'));
    expect(hedged.value).to.be.below(plain);
    // The only term that moved is the hedging one, and its spans are the hedges themselves.
    expect(hedged.contributions.map((c) => c.feature)).to.deep.equal(['hedging']);
    expect(hedged.contributions[0].spans.map((s) => s.text)).to.include.members(['probably', 'maybe']);
    // Given the same hesitation measure, the politeness strategies alone see no difference.
    const a = analyze('The log file is probably on the shared drive, maybe.');
    const none = { value: 0, contributions: [] };
    expect(measureDirectness(a, undefined, none).value).to.equal(measureDirectness(analyze('The log file is on the shared drive.'), undefined, none).value);
  });

  it('rewards answering up front and penalises preamble when the incoming message is known', () => {
    const incoming = 'Where is the deploy log stored?';
    const upFront = features('The deploy log is in /var/log/app.', incoming);
    expect(upFront.answerFirst).to.equal(1);
    expect(upFront.preamble).to.equal(0);
    const late = features('Good morning. I hope your week is going well. The deploy log is in /var/log/app.', incoming);
    expect(late.answerFirst).to.equal(0);
    expect(late.preamble).to.be.greaterThan(0);
    expect(directness('The deploy log is in /var/log/app.', incoming)).to.be.greaterThan(directness('The deploy log is in /var/log/app.'));
  });

  it('counts a bare yes/no/done opening as answering first', () => {
    expect(features('No. We ship on Monday as planned.', 'Should we delay the launch?').answerFirst).to.equal(1);
    expect(features('Done. The invite went out an hour ago.', 'Can you move my meeting?').answerFirst).to.equal(1);
    expect(features('Done. The invite went out an hour ago.', 'Can you move my meeting?').imperative).to.equal(0);
  });

  it('puts a reply with no strategy at all on the direct side', () => {
    expect(directness('The invite went out an hour ago.')).to.be.greaterThan(0.5);
  });

  it('ignores the incoming message when it has no content words', () => {
    expect(directness('The deploy log is in /var/log/app.', 'ok?')).to.equal(directness('The deploy log is in /var/log/app.'));
  });

  it('explains the value only with features that fired, each with its spans', () => {
    const text = 'Thanks for the report! Could you send the log file when you get a chance?';
    const m = measureDirectness(analyze(text));
    const names = m.contributions.map((c) => c.feature);
    expect(names).to.include.members(['gratitude', 'counterfactual', 'mitigator']);
    for (const c of m.contributions) {
      expect(c.value, c.feature).to.not.equal(0);
      expect(c.spans.length, c.feature).to.be.greaterThan(0);
    }
    const gratitude = m.contributions.find((c) => c.feature === 'gratitude');
    expect(gratitude?.delta).to.be.lessThan(0);
    expect(gratitude?.spans.map((s) => s.text)).to.deep.equal(['Thanks']);
  });

  it('shares out the distance from the no-strategy baseline exactly among the contributions', () => {
    const baseline = measureDirectness(analyze('')).value;
    for (const text of ['Why did you do that?', 'Hi! Thanks so much, could you check it when you have a moment?']) {
      const m = measureDirectness(analyze(text));
      const total = m.contributions.reduce((s, c) => s + c.delta, 0);
      expect(baseline + total, text).to.be.closeTo(m.value, 1e-9);
    }
  });

  it('sorts contributions by |delta| descending, then by feature name', () => {
    const m = measureDirectness(analyze('Hey, sorry! So why did you revert it? Please check again, thanks.'));
    expectSortedByImpact(m);
  });

  it('keeps every value in 0..1 and every span an exact slice of the text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.option(fc.string({ maxLength: 80 }), { nil: undefined }), (text, incoming) => {
        const m = measureDirectness(analyze(text), incoming === undefined ? undefined : analyze(incoming));
        expect(Number.isFinite(m.value)).to.equal(true);
        expect(m.value).to.be.within(0, 1);
        expectSpansSliceText(text, m);
      }),
      { numRuns: 200, seed: 11 },
    );
  });

  it('keeps spans exact around curly apostrophes and emoji', () => {
    const text = '🙏 Thanks!! I’m wondering if you’d mind—could you check the logs? 😅';
    expectSpansSliceText(text, measureDirectness(analyze(text), analyze('can you check the logs')));
  });

  it('rates a bare imperative above the same request hedged with a counterfactual modal', () => {
    expect(directness('Fix the broken link.')).to.be.greaterThan(directness('Could you maybe fix the broken link?'));
    expect(directness('Tell me why you deleted it.')).to.be.greaterThan(directness('I was wondering if you could tell me why it was deleted.'));
  });

  it('reads politeness strategies only, not a community word list', () => {
    // "biased" and "nonsense" were Wikipedia talk-page words in the 1.3 model; they are not a strategy.
    expect(directness('This section is biased nonsense.')).to.equal(directness('This section is about trains.'));
    for (const e of weights.lexicon) expect(STRATEGY_SIDES[e.category as keyof typeof STRATEGY_SIDES], e.phrase).to.not.equal(undefined);
  });

  it('keeps every fitted strategy weight on its theoretical side', () => {
    weights.model.features.forEach((f, j) => {
      const side = STRATEGY_SIDES[f as keyof typeof STRATEGY_SIDES];
      expect(side, f).to.not.equal(undefined);
      expect(weights.model.weights[j] * (side ?? 0), f).to.be.at.least(0);
    });
  });

  it('is deterministic', () => {
    const text = 'Hi, could you please look at the failing build when you get a chance?';
    const incoming = 'the build is failing again';
    const a = JSON.stringify(measureDirectness(analyze(text), analyze(incoming)));
    expect(JSON.stringify(measureDirectness(analyze(text), analyze(incoming)))).to.equal(a);
  });

  it('gives empty text a finite value in 0..1 without contributions', () => {
    const m = measureDirectness(analyze(''), analyze(''));
    expect(m.value).to.be.within(0, 1);
    expect(m.contributions).to.deep.equal([]);
  });

  it('carries a version string', () => {
    expect(DIRECTNESS_VERSION).to.match(/^directness-\d+\.\d+\.\d+/);
  });
});

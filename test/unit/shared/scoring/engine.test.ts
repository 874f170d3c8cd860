import { expect } from 'chai';
import fc from 'fast-check';
import { scoreText, ScoringInputError, SCORER_VERSION, MAX_TEXT_CHARS, type ScoreResult, type Span } from '../../../../shared/scoring';
import { PROFILES, findProfile } from '../../../../shared/profiles';
import { modelTiming } from '../../../../shared/scoring/timing';
import { EXEMPLARS } from '../../../fixtures/profile-exemplars';
import { LLM_STYLE_REPLIES } from '../../../fixtures/llm-style-replies';

const REPLY = "honestly I think it's the cache, it's been flaky since tuesday. have you tried restarting the worker?";
const INCOMING = 'the deploy failed again, any idea why?';

function allSpans(r: ScoreResult): Span[] {
  const spans: Span[] = [];
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (typeof o.start === 'number' && typeof o.end === 'number' && typeof o.text === 'string') spans.push(o as unknown as Span);
      else Object.values(o).forEach(visit);
    }
  };
  visit(r);
  return spans;
}

function expectInputError(fn: () => unknown, code: string): void {
  try {
    fn();
  } catch (err) {
    expect(err).to.be.instanceOf(ScoringInputError);
    expect((err as ScoringInputError).code).to.equal(code);
    return;
  }
  expect.fail(`expected ScoringInputError ${code}`);
}

describe('scoreText', () => {
  it('gives the same output byte for byte for the same input', () => {
    const input = { text: REPLY, incoming: INCOMING, delaySeconds: 30, profile: 'all', deep: true };
    const a = JSON.stringify(scoreText(input));
    const b = JSON.stringify(scoreText({ ...input }));
    expect(a).to.equal(b);
    expect(JSON.stringify(scoreText({ ...input, profile: 'terse-senior-engineer' }))).to.equal(JSON.stringify(scoreText({ ...input, profile: 'terse-senior-engineer' })));
  });

  it('carries the scorer version in every result', () => {
    expect(SCORER_VERSION).to.match(/^\d+\.\d+\.\d+\+[0-9a-f]{12}$/);
    expect(scoreText({ text: REPLY }).scorer_version).to.equal(SCORER_VERSION);
  });

  it('keeps every evidence span an exact slice of the original text, for any Unicode input', () => {
    const unit = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 40 }),
      fc.string({ unit: 'binary', maxLength: 20 }),
      fc.constantFrom('As an AI language model, ', 'Certainly! ', '## Heading\n', '- item\n', ' — ', '🙂🏽', 'I hope this helps!', 'do not ', '...', '\n\n', "I'm ", 'delve into the tapestry '),
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 12 }), fc.boolean(), (parts, deep) => {
        const text = parts.join('');
        if (text.trim() === '') return;
        const r = scoreText({ text, profile: 'all', deep, delaySeconds: 5, incoming: text.slice(0, 50) });
        for (const s of allSpans(r)) {
          expect(s.start).to.be.at.least(0);
          expect(s.end).to.be.at.most(text.length);
          expect(s.start).to.be.at.most(s.end);
          expect(text.slice(s.start, s.end)).to.equal(s.text);
        }
        expect(r.human_likeness).to.be.within(0, 100);
      }),
      { numRuns: 150, seed: 20261121 },
    );
  });

  it('never raises the score when "As an AI language model" is added', () => {
    for (const ex of EXEMPLARS.slice(0, 10)) {
      const base = scoreText({ text: ex.text, incoming: ex.incoming, profile: ex.profile });
      const tainted = scoreText({ text: `As an AI language model, ${ex.text}`, incoming: ex.incoming, profile: ex.profile });
      expect(tainted.result!.eq_score, ex.profile).to.be.at.most(base.result!.eq_score);
      expect(tainted.human_likeness, ex.profile).to.be.at.most(base.human_likeness);
      expect(tainted.result!.passed).to.equal(false);
    }
  });

  it('fails a reply sent faster than any human could read and type it', () => {
    const ex = EXEMPLARS.find((e) => e.profile === 'patient-teacher')!;
    const r = scoreText({ text: ex.text, incoming: ex.incoming, profile: ex.profile, delaySeconds: 0.4 });
    expect(r.result!.dimensions.timing!.superhuman).to.equal(true);
    expect(r.result!.passed).to.equal(false);
    expect(r.result!.signals.map((s) => s.id)).to.include('superhuman-latency');
    const slow = scoreText({ text: ex.text, incoming: ex.incoming, profile: ex.profile, delaySeconds: 60 });
    expect(r.human_likeness).to.be.below(slow.human_likeness);
  });

  it('drops timing when no delay is given and renormalizes the weights', () => {
    const r = scoreText({ text: REPLY, profile: 'warm-casual-texter' });
    expect(r.result!.dimensions.timing).to.equal(undefined);
    const d = r.result!.dimensions;
    expect(d.empathy.weight + d.formality.weight + d.directness.weight + d.hesitation.weight).to.be.closeTo(1, 0.002);
  });

  it('scores all 28 profiles, best first, with the best one in full', () => {
    const r = scoreText({ text: REPLY, incoming: INCOMING, delaySeconds: 30, profile: 'all' });
    expect(r.profiles).to.have.length(28);
    expect(new Set(r.profiles!.map((p) => p.profile)).size).to.equal(28);
    for (let i = 1; i < r.profiles!.length; i++) expect(r.profiles![i - 1].eq_score).to.be.at.least(r.profiles![i].eq_score);
    expect(r.result!.profile).to.equal(r.profiles![0].profile);
    expect(r.result!.eq_score).to.equal(r.profiles![0].eq_score);
  });

  it('adds contributions and at most five prioritized rewrite steps on the deep tier only', () => {
    const text = 'Certainly! As an AI language model, I must say it is important to delve into the intricate tapestry of this issue. I hope this helps!';
    const basic = scoreText({ text, profile: 'warm-casual-texter', incoming: INCOMING, delaySeconds: 30 });
    expect(basic.result!.advice.rewrite_guidance).to.equal(undefined);
    expect(basic.result!.dimensions.formality.contributions).to.equal(undefined);
    const deep = scoreText({ text, profile: 'warm-casual-texter', incoming: INCOMING, delaySeconds: 30, deep: true });
    const steps = deep.result!.advice.rewrite_guidance!;
    expect(steps.length).to.be.within(1, 5);
    expect(steps[0].target).to.equal('ai-self-disclosure'); // hard fails first
    expect(steps.map((s) => s.priority)).to.deep.equal(steps.map((_, i) => i + 1));
    expect(deep.result!.dimensions.formality.contributions).to.be.an('array');
  });

  it('advises without ever telling the agent to claim to be human or deny being an AI', () => {
    const text = 'As an AI language model, I cannot have opinions. Certainly! I hope this helps!';
    const r = scoreText({ text, profile: 'all', deep: true, incoming: 'are you a bot?' });
    const advice = JSON.stringify(r.result!.advice).toLowerCase();
    expect(advice).to.not.match(/(claim|pretend|say) (that )?you('re| are) (a )?human|deny (being|that you are) an ai|never (admit|reveal)/);
    expect(r.result!.advice.suggested_prompt_addition.toLowerCase()).to.include('honestly');
  });

  it('reaches every profile: each has a human reply that passes it', () => {
    expect(EXEMPLARS.map((e) => e.profile).sort()).to.deep.equal(PROFILES.map((p) => p.id).sort());
    const failures: string[] = [];
    for (const ex of EXEMPLARS) {
      const profile = findProfile(ex.profile)!;
      const delay = modelTiming({ delaySeconds: 0, replyChars: ex.text.length, incomingWords: ex.incoming.split(/\s+/).length, incomingQuestions: (ex.incoming.match(/\?/g) ?? []).length }, profile.tempo).expected;
      const r = scoreText({ text: ex.text, incoming: ex.incoming, delaySeconds: delay, profile: ex.profile });
      if (!r.result!.passed) {
        const d = r.result!.dimensions;
        failures.push(`${ex.profile}: eq ${r.result!.eq_score}, fits ${['empathy', 'formality', 'directness', 'hesitation'].map((k) => `${k} ${d[k as 'empathy'].measured}/${d[k as 'empathy'].target}`).join(', ')}, signals ${r.result!.signals.map((s) => s.id).join(',')}`);
      }
    }
    expect(failures, failures.join('\n')).to.deep.equal([]);
  });

  it('fails unedited assistant-style replies to the same messages, even with a plausible delay', () => {
    const passed: string[] = [];
    for (const [id, text] of Object.entries(LLM_STYLE_REPLIES)) {
      const ex = EXEMPLARS.find((e) => e.profile === id)!;
      const delay = modelTiming({ delaySeconds: 0, replyChars: text.length, incomingWords: ex.incoming.split(/\s+/).length, incomingQuestions: 0 }, findProfile(id)!.tempo).expected;
      const r = scoreText({ text, incoming: ex.incoming, delaySeconds: delay, profile: id });
      if (r.result!.passed) passed.push(`${id} (${r.result!.eq_score})`);
      // The human reply to the same message scores higher.
      const human = scoreText({ text: ex.text, incoming: ex.incoming, delaySeconds: delay, profile: id });
      expect(human.result!.eq_score, id).to.be.above(r.result!.eq_score);
    }
    expect(passed, passed.join(', ')).to.deep.equal([]);
  });

  describe('bad input', () => {
    it('rejects empty or whitespace-only text', () => {
      expectInputError(() => scoreText({ text: '' }), 'empty_text');
      expectInputError(() => scoreText({ text: ' \n\t ' }), 'empty_text');
    });
    it('rejects a 1 MB text', () => {
      expectInputError(() => scoreText({ text: 'a'.repeat(1024 * 1024) }), 'text_too_long');
      expect(() => scoreText({ text: 'word '.repeat(MAX_TEXT_CHARS / 5 - 1) })).to.not.throw();
    });
    it('rejects a negative, infinite or non-numeric delay', () => {
      expectInputError(() => scoreText({ text: REPLY, delaySeconds: -1 }), 'invalid_delay');
      expectInputError(() => scoreText({ text: REPLY, delaySeconds: Number.POSITIVE_INFINITY }), 'invalid_delay');
      expectInputError(() => scoreText({ text: REPLY, delaySeconds: Number.NaN }), 'invalid_delay');
      expectInputError(() => scoreText({ text: REPLY, delaySeconds: '3' as unknown as number }), 'invalid_delay');
    });
    it('rejects an unknown profile', () => {
      expectInputError(() => scoreText({ text: REPLY, profile: 'pirate-captain' }), 'unknown_profile');
    });
    it('rejects a non-string text', () => {
      expectInputError(() => scoreText({ text: 42 as unknown as string }), 'invalid_text');
    });
  });
});

import weights from '../../../../shared/scoring/weights/empathy.json';
import { expect } from 'chai';
import fc from 'fast-check';
import { analyze } from '../../../../shared/scoring/analyze';
import { emotionalLoad, measureEmpathy } from '../../../../shared/scoring/empathy';
import type { EmpathyMeasure } from '../../../../shared/scoring/measure-types';
import { expectSpansSliceText } from '../../../helpers/measure-assertions';

function empathy(reply: string, incoming?: string): EmpathyMeasure {
  return measureEmpathy(analyze(reply), incoming === undefined ? undefined : analyze(incoming));
}

function load(text: string): number {
  return emotionalLoad(analyze(text));
}

const WARM = "I'm so sorry you're going through this, that sounds exhausting. How are you holding up?";
const DISTRESSED = "I'm exhausted. My mom is back in hospital and I'm going through it alone.";

/** A reply with no marker sits at the bottom of the calibrated scale. */
const BASE = -weights.calibration.zero / (weights.calibration.one - weights.calibration.zero);

describe('measureEmpathy', () => {
  it('rates a warm, reflective, asking reply far above a bare instruction', () => {
    const warm = empathy(WARM, DISTRESSED);
    const bare = empathy('Run npm install.', DISTRESSED);
    expect(warm.value).to.be.greaterThan(bare.value + 0.4);
    // A bare instruction is advice-giving (1.4.0): below the neutral floor, with that as its only term.
    expect(bare.value).to.be.lessThan(BASE);
    expect(bare.contributions.map((c) => c.feature)).to.deep.equal(['advice-giving']);
    expect(empathy('The server is in Frankfurt.', DISTRESSED).value).to.equal(BASE);
    expect(warm.mechanisms.er).to.be.greaterThan(0);
    expect(warm.mechanisms.ip).to.be.greaterThan(0);
    expect(warm.mechanisms.ex).to.be.greaterThan(0);
  });

  it('gives level 2 only when the marker sentence shares content with the incoming message', () => {
    const reply = "I'm so sorry about your dog.";
    expect(empathy(reply, 'My dog died yesterday.').mechanisms.er).to.equal(2);
    expect(empathy(reply, 'The deploy failed again.').mechanisms.er).to.equal(1);
    expect(empathy(reply).mechanisms.er).to.equal(1);
  });

  it('judges specificity per sentence, not per reply', () => {
    // "dog" is shared, but only by the sentence without a marker.
    const m = empathy("I'm so sorry. Your dog was lucky to have you.", 'My dog died yesterday.');
    expect(m.mechanisms.er).to.equal(1);
  });

  it('rates a specific reply at least as high as the same reply to an unrelated message', () => {
    const reply = 'That sounds like a really hard week with your sister. Have you talked to her since?';
    expect(empathy(reply, 'My sister stopped talking to me this week.').value).to.be.at.least(empathy(reply, 'What is the deploy command?').value);
  });

  it('treats interpretation markers as empathic, never as a penalty', () => {
    const base = empathy('Try restarting it.', 'I am so stressed about this.');
    const reflective = empathy("It sounds like you're really stressed. Try restarting it.", 'I am so stressed about this.');
    expect(reflective.mechanisms.ip).to.be.greaterThan(0);
    expect(reflective.value).to.be.greaterThan(base.value);
    for (const c of reflective.contributions.filter((x) => x.feature === 'interpretations')) expect(c.delta).to.be.greaterThan(0);
  });

  it('reads self-disclosure as interpretation, but not opinions or a loop variable "i"', () => {
    expect(empathy('I went through the same thing when my dad got sick, and I still miss him.').mechanisms.ip).to.be.greaterThan(0);
    expect(empathy("I think it's the cache, but I'm not sure.").mechanisms.ip).to.equal(0);
    expect(empathy('The loop checks whether i is less than 10, but i = i + 1 never runs.').mechanisms.ip).to.equal(0);
  });

  it('does not count a stock "I hope this helps" as an emotional reaction', () => {
    expect(empathy('Set the flag to true. I hope this helps!').mechanisms.er).to.equal(0);
    expect(empathy('I hope you feel better soon.').mechanisms.er).to.be.greaterThan(0);
  });

  it('reads a short warm peer-support line well above the floor (not only Reddit phrasing)', () => {
    const seeker = 'My girlfriend left me last week and I feel so alone.';
    for (const line of ['I feel sad for you!', 'That sounds really hard.', 'You must be so lonely right now.', "Oh no, that's awful."]) {
      expect(empathy(line, seeker).value, line).to.be.greaterThan(BASE + 0.1);
    }
  });

  it('reads a feeling attributed to the person as interpretation, and negated as reassurance', () => {
    expect(empathy('You seem really stressed about the exam.').mechanisms.ip).to.be.greaterThan(0);
    expect(empathy("You're not alone in this.").mechanisms.er).to.be.greaterThan(0);
    // Generic advice about feelings is neither: "if you feel sad", "it will make you happy".
    const generic = empathy('If you feel sad, go for a run. It will make you happy.');
    expect(generic.mechanisms.ip).to.equal(0);
  });

  it('reads a sentence-opening evaluation as a reaction, but not a task judged hard', () => {
    expect(empathy("That's so unfair.").mechanisms.er).to.be.greaterThan(0);
    expect(empathy("It's hard to find the setting in the menu.").mechanisms.er).to.equal(0);
  });

  it('does not count a suggestion put as a question as exploration, and lets advice pull below the floor', () => {
    expect(empathy('Have you tried yoga?').mechanisms.ex).to.equal(0);
    expect(empathy('How are you feeling about it?').mechanisms.ex).to.be.greaterThan(0);
    const text = 'You should update your resume and apply to other jobs.';
    const advice = empathy(text);
    expect(advice.value).to.be.lessThan(BASE);
    expect(advice.contributions.map((c) => c.feature)).to.deep.equal(['advice-giving']);
    expect(advice.contributions[0].spans.map((sp) => sp.text)).to.deep.equal(['You should']);
    expectSpansSliceText(text, advice);
  });

  it('reads a bare command as advice, but not a supportive one', () => {
    expect(empathy('Try restarting it.').value).to.be.lessThan(BASE);
    expect(empathy('Hang in there.').value).to.be.greaterThan(BASE);
    expect(empathy('Thank you for sharing.').value).to.equal(BASE);
  });

  it('lowers the value for contempt', () => {
    const incoming = 'I failed my exam again.';
    // From a warm start: a bare suggestion alone already sits at the bottom of the scale.
    expect(empathy('That sounds so hard. Have you talked to your teacher? Stop whining and get over it.', incoming).value).to.be.lessThan(
      empathy('That sounds so hard. Have you talked to your teacher?', incoming).value,
    );
  });

  it('reports the emotional load of the incoming message and 0 without one', () => {
    expect(empathy(WARM, "I'm terrified, I can't cope with this").emotionalLoad).to.be.greaterThan(0.5);
    expect(empathy(WARM).emotionalLoad).to.equal(0);
  });

  it('explains the value: deltas add up to it and are sorted by size, then name', () => {
    const m = empathy("Oh no, that's awful. I went through the same thing with my dad last year and I still think about it. What happened?", 'My dad is sick and I feel awful.');
    const sum = m.contributions.reduce((s, c) => s + c.delta, 0);
    expect(BASE + sum).to.be.closeTo(m.value, 1e-9);
    for (let i = 1; i < m.contributions.length; i++) {
      const prev = m.contributions[i - 1];
      const cur = m.contributions[i];
      expect(Math.abs(prev.delta) > Math.abs(cur.delta) || (Math.abs(prev.delta) === Math.abs(cur.delta) && prev.feature <= cur.feature)).to.equal(true);
    }
  });

  it('gives spans that slice the original text exactly, with curly quotes and emoji', () => {
    const text = 'Oh no 😢 I’m so sorry… that sounds awful. I’ve been there too, honestly. Have you told anyone? <3';
    const m = empathy(text, 'I lost my job today and I feel awful 😞');
    expect(m.contributions.length).to.be.greaterThan(0);
    expectSpansSliceText(text, m);
  });

  it('is deterministic', () => {
    const a = JSON.stringify(empathy(WARM, DISTRESSED));
    const b = JSON.stringify(empathy(WARM, DISTRESSED));
    expect(a).to.equal(b);
  });

  it('gives a finite value in 0..1 for empty and whitespace text', () => {
    for (const text of ['', '   ', '\n']) {
      const m = empathy(text, text);
      expect(Number.isFinite(m.value)).to.equal(true);
      expect(m.value).to.be.within(0, 1);
      expect(m.mechanisms).to.deep.equal({ er: 0, ip: 0, ex: 0 });
      expect(m.emotionalLoad).to.equal(0);
    }
  });

  it('keeps the value in 0..1 and spans exact for arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.string({ maxLength: 120 }), (reply, incoming) => {
        const m = empathy(reply, incoming);
        expect(m.value).to.be.within(0, 1);
        expect(m.emotionalLoad).to.be.within(0, 1);
        expectSpansSliceText(reply, m);
      }),
      { numRuns: 150, seed: 7 },
    );
  });
});

describe('emotionalLoad', () => {
  describe('constructions that carry across communities', () => {
    const constructsOf = (reply: string, incoming?: string) => empathy(reply, incoming).contributions.map((c) => c.feature);
    // [reply, construct it must show, construct it must not show]
    const cases: [string, string, string][] = [
      ["It sounds like you're exhausted by the night shifts.", 'reflection', 'advice-giving'],
      ["So it's hard to say no to your friends.", 'reflection', 'phatic'],
      ['So what do you want to do next week?', 'exploration', 'reflection'],
      ["You've tried everything they asked of you.", 'restatement', 'advice-giving'],
      ['I can imagine how lonely that gets.', 'perspective', 'dismissal'],
      ['I would be scarred for life after that.', 'perspective', 'shared'],
      ['He was probably terrified the whole time.', 'perspective', 'reaction'],
      ['That makes sense, anyone would be upset.', 'validation', 'dismissal'],
      ["It's so sad what happened to those kids.", 'concern', 'phatic'],
      ['Sorry I misunderstood the question earlier.', 'shared', 'reaction'],
      ['Calm down, it could be worse.', 'dismissal', 'validation'],
      ['haha bye, nice talking!', 'phatic', 'reaction'],
      ['That whole week was frustrating for everyone.', 'names-a-feeling', 'advice-giving'],
      ['Are you feeling any better today?', 'exploration', 'names-a-feeling'],
    ];
    for (const [reply, shows, lacks] of cases) {
      it(`reads "${reply}" as ${shows}, not ${lacks}`, () => {
        const features = constructsOf(reply);
        if (shows !== 'exploration' && shows !== 'shared') expect(features, reply).to.include(shows);
        expect(features, reply).not.to.include(lacks);
      });
    }

    it('does not count a question as exploration in the value (its sign flips between communities)', () => {
      expect(empathy('When do you get off work tonight?').value).to.equal(BASE);
    });

    it('rates reflection, perspective and validation above the floor, and dismissal and small talk below a plain line', () => {
      for (const line of ["It sounds like you're exhausted by the night shifts.", 'I can imagine how lonely that gets.', 'That makes sense, anyone would be upset.']) {
        expect(empathy(line).value, line).to.be.greaterThan(BASE);
      }
      expect(empathy("I'm sorry. Calm down, it could be worse.").value).to.be.lessThan(empathy("I'm sorry.").value);
      expect(empathy('haha bye, nice talking!').value).to.be.lessThan(BASE);
    });

    it('rates a feeling named in a statement above the same statement without it', () => {
      expect(empathy('That whole week was frustrating for everyone.').value).to.be.greaterThan(empathy('That whole week was long for everyone.').value);
    });

    it('reads the anchor reply (two specific sentences: reaction and reflection) near the top of the ordinary scale', () => {
      const anchor = empathy("I'm so sorry you're exhausted. It sounds like the night shifts are wearing you down.", "I'm exhausted. The night shifts are wearing me down and I can't sleep.");
      expect(anchor.value).to.be.within(0.7, 0.8);
    });

    it('counts acknowledgement of their situation in their words only when there is a message', () => {
      const reply = "You've been covering the night shifts alone for weeks.";
      const incoming = "I've covered every night shift alone for weeks and I'm exhausted.";
      expect(empathy(reply, incoming).value).to.be.greaterThan(empathy(reply).value);
    });
  });

  it('is higher for distress than for a technical question', () => {
    expect(load("I'm terrified, I can't cope with this")).to.be.greaterThan(load("what's the deploy command?"));
    expect(load("what's the deploy command?")).to.equal(0);
  });

  it('ignores negated feelings but not "can\'t stop crying"', () => {
    expect(load("I'm not worried about it")).to.equal(0);
    expect(load("I can't stop crying")).to.be.greaterThan(0);
  });

  it('reads alarmed punctuation only next to distress', () => {
    expect(load('Great news!! We shipped')).to.equal(0);
    expect(load("I'm scared!!")).to.be.greaterThan(load("I'm scared."));
  });

  it('stays in 0..1 however much distress piles up', () => {
    const l = load('I am scared, terrified, hopeless, worthless, crying, panicking and I want to die!!! '.repeat(5));
    expect(l).to.be.within(0.99, 1);
  });
});

import { expect } from 'chai';
import { analyze } from '../../../../shared/scoring/analyze';
import type { SignalContext, SignalHit } from '../../../../shared/scoring/measure-types';
import { detectSignals } from '../../../../shared/scoring/signals';

function signals(text: string, ctx: SignalContext = {}): SignalHit[] {
  return detectSignals(analyze(text), ctx);
}

function ids(text: string, ctx: SignalContext = {}): string[] {
  return signals(text, ctx).map((s) => s.id);
}

function find(text: string, id: string, ctx: SignalContext = {}): SignalHit | undefined {
  return signals(text, ctx).find((s) => s.id === id);
}

function penalty(s: SignalHit): number {
  return s.severity * Math.min(1, s.count / s.saturation);
}

const CASUAL: SignalContext = { profileFormality: 0.3 };

describe('detectSignals', () => {
  describe('ai-self-disclosure', () => {
    it('fires as a hard fail on canned disclaimers', () => {
      for (const text of [
        "As an AI language model, I don't have personal opinions, but many people like jazz.",
        'Well, as an AI, I cannot taste food. People usually love the pasta there though.',
        "I'm just a language model, so I can't say what the weather is like outside.",
        'I do not have personal feelings about the election.',
        'I am sorry, but I do not have access to real-time information about flights.',
      ]) {
        const hit = find(text, 'ai-self-disclosure');
        expect(hit, text).to.not.equal(undefined);
        expect(hit!.hardFail).to.equal(true);
      }
    });

    it('stays quiet on an honest, plain answer to being asked', () => {
      for (const text of [
        "Yes, I'm an AI assistant.",
        "I'm a bot, but I can help with that.",
        "No, I'm an AI. Want me to book the table anyway?",
        'Yes, I am an artificial intelligence.',
        'Treat it as an AI tool and double-check the numbers.',
        "I don't have personal experience with that brand, sorry.",
      ]) {
        expect(ids(text), text).to.not.include('ai-self-disclosure');
      }
    });
  });

  describe('assistant-boilerplate', () => {
    it('gives 0.35 for one hit and saturates at 0.6', () => {
      const one = find('Certainly! The meeting moved to 3pm on Friday.', 'assistant-boilerplate')!;
      expect(one.count).to.equal(1);
      expect(penalty(one)).to.be.closeTo(0.35, 1e-9);
      const three = find(
        "Great question! The meeting moved to 3pm on Friday. Feel free to reach out if anything changes. I hope this helps!",
        'assistant-boilerplate',
      )!;
      expect(three.count).to.equal(3);
      expect(penalty(three)).to.be.closeTo(0.6, 1e-9);
    });

    it('anchors openers at the start and closers at the end', () => {
      expect(ids('We moved the meeting to Friday. Nobody told me. Certainly! That was a surprise to everyone. Anyway, see you then. Bring snacks.')).to.not.include(
        'assistant-boilerplate',
      );
      expect(ids('I hope this helps you sleep better, honestly. Then we can talk more tomorrow. And the day after. And the day after that.')).to.not.include(
        'assistant-boilerplate',
      );
    });

    it('stays quiet on a human reply', () => {
      expect(ids("Sure, I'll send the schedule tonight. I certainly hope the train is on time this week.")).to.not.include('assistant-boilerplate');
    });
  });

  describe('markdown-structure', () => {
    it('fires on lists and bold, and is a hard fail with a heading', () => {
      const list = find('Here are the options:\n\n- Take the bus\n- Take a taxi\n\n**Both** are fine.', 'markdown-structure')!;
      expect(list.hardFail).to.equal(false);
      expect(list.count).to.equal(3);
      const heading = find('## Options\n\nTake the bus or a taxi.', 'markdown-structure')!;
      expect(heading.hardFail).to.equal(true);
    });

    it('stays quiet on a human reply with a sign-off dash and *emphasis*', () => {
      expect(ids("I'll bring chips, I *really* mean it this time.\n- Sam")).to.not.include('markdown-structure');
      expect(ids('# of people coming: 5')).to.not.include('markdown-structure');
    });
  });

  describe('excess-vocab', () => {
    it('fires at density and gives 0.15 per hit up to 0.45', () => {
      const one = find('We should delve into the budget before Friday.', 'excess-vocab')!;
      expect(penalty(one)).to.be.closeTo(0.15, 1e-9);
      const many = find('Let us delve into the intricate tapestry of this pivotal moment, a testament to our meticulous work.', 'excess-vocab')!;
      expect(many.count).to.be.at.least(5);
      expect(penalty(many)).to.be.closeTo(0.45, 1e-9);
    });

    it('never flags plain or common words', () => {
      expect(ids('This is an important and significant step, and it is essential to ensure we are ready. It is crucial.')).to.not.include('excess-vocab');
    });

    it('needs density, not a single word in a long message', () => {
      const filler = 'we went to the shop and then we walked home and made dinner and watched a film. '.repeat(8);
      expect(ids(`${filler}The park was vibrant.`)).to.not.include('excess-vocab');
    });
  });

  describe('uniform-sentences', () => {
    it('fires on four sentences of the same length', () => {
      expect(ids('The team met on Monday morning. The plan was reviewed in detail. The budget was approved by everyone. The launch is set for next week.')).to.include(
        'uniform-sentences',
      );
    });

    it('stays quiet on a bursty human reply', () => {
      expect(ids('Ok. So the team met on Monday and went through basically every single line of the plan, which took forever. Budget approved! Launch next week, fingers crossed.')).to.not.include(
        'uniform-sentences',
      );
    });
  });

  describe('no-contractions', () => {
    const formal = 'I do not think it is a good idea. You are right that we cannot go today. I am tired anyway.';

    it('fires for a casual profile when the expanded forms dominate', () => {
      const hit = find(formal, 'no-contractions', CASUAL)!;
      expect(hit.spans.map((s) => s.text.toLowerCase())).to.include.members(['do not', 'cannot', 'i am']);
    });

    it('stays quiet without a profile, for a formal profile, and on contracted text', () => {
      expect(ids(formal)).to.not.include('no-contractions');
      expect(ids(formal, { profileFormality: 0.7 })).to.not.include('no-contractions');
      expect(ids("I don't think it's a good idea. You're right that we can't go today. I'm tired anyway.", CASUAL)).to.not.include('no-contractions');
    });
  });

  describe('em-dash', () => {
    it('fires in casual chat at one per 60 words and stays quiet for a formal profile', () => {
      const text = 'It was fine\u2014really fine\u2014but we got home late.';
      expect(ids(text, CASUAL)).to.include('em-dash');
      expect(ids(text, { profileFormality: 0.8 })).to.not.include('em-dash');
      expect(ids('It was fine - really fine - but we got home late.', CASUAL)).to.not.include('em-dash');
    });
  });

  describe('signposting', () => {
    it('fires on signposts, sentence-initial connectives counting only at a sentence start', () => {
      const hit = find("It's worth noting that the bus is late. Overall, the trip was fine.", 'signposting')!;
      expect(hit.count).to.equal(2);
      expect(penalty(hit)).to.be.closeTo(0.2, 1e-9);
      expect(ids('The bus was late but overall, fine.')).to.not.include('signposting');
    });
  });

  describe('generic-caveat', () => {
    it('fires on stock caveats and stays quiet on a direct answer', () => {
      expect(ids("It's difficult to say which one is better, as it depends on various factors.")).to.include('generic-caveat');
      expect(ids('The blue one is better, it lasts longer.')).to.not.include('generic-caveat');
    });
  });

  describe('length-mismatch', () => {
    const text = 'I went to the market this morning and bought apples, bread, cheese and a lot of other things we needed.';

    it('fires only when the reply is over three times the profile norm', () => {
      expect(ids(text, { typicalWords: 5 })).to.include('length-mismatch');
      expect(ids(text, { typicalWords: 20 })).to.not.include('length-mismatch');
      expect(ids(text)).to.not.include('length-mismatch');
    });
  });

  describe('relentless-positivity', () => {
    it('fires on unbroken cheer and stays quiet once any doubt appears', () => {
      expect(ids('This is amazing. I love it. What a wonderful day for everyone.')).to.include('relentless-positivity');
      expect(ids('This is amazing. I love it. But the weather was bad.')).to.not.include('relentless-positivity');
    });
  });

  it('skips exempted signals', () => {
    const text = 'It was fine\u2014really fine\u2014but late. Certainly! I hope this helps!';
    const all = ids(text, CASUAL);
    expect(all).to.include.members(['em-dash']);
    const exempt = ids(text, { ...CASUAL, exemptions: new Set(['em-dash', 'assistant-boilerplate']) });
    expect(exempt).to.not.include('em-dash');
    expect(exempt).to.not.include('assistant-boilerplate');
  });

  it('sorts hard fails first, then by penalty, then by position', () => {
    const text =
      "Great question! As an AI language model, I don't have personal opinions. It's worth noting that the tapestry is intricate and pivotal. I hope this helps!";
    const hits = signals(text, CASUAL);
    expect(hits[0].id).to.equal('ai-self-disclosure');
    for (let i = 2; i < hits.length; i++) {
      if (hits[i - 1].hardFail !== hits[i].hardFail) continue;
      expect(penalty(hits[i - 1])).to.be.at.least(penalty(hits[i]));
    }
  });

  it('reports spans that slice the original text exactly', () => {
    const texts = [
      'As an AI language model, I don\u2019t have personal opinions \u{1F600}. It\u2019s worth noting that we can\u2019t delve into this.',
      '\u0130stanbul trip \u2014 certainly not! I do not think it is a good idea, you are right, I am out.\n\n- one\n- two\n**bold**',
      'Certainly! \u{1F680}\u{1F680} Here is the intricate plan\u2014a testament to teamwork. Overall, I hope this helps!',
    ];
    for (const text of texts) {
      const found = signals(text, { profileFormality: 0.2, typicalWords: 2 });
      // Each text is full of tells: an empty list would make the checks below vacuous.
      expect(found.length, text).to.be.at.least(2);
      for (const s of found) {
        expect(s.spans.length, s.id).to.be.above(0);
        for (const sp of s.spans) {
          expect(sp.start).to.be.at.least(0);
          expect(sp.end).to.be.at.most(text.length);
          expect(text.slice(sp.start, sp.end), s.id).to.equal(sp.text);
        }
      }
    }
  });

  it('is deterministic', () => {
    const text = "Certainly! It's worth noting that the tapestry is intricate. I do not know, it is late, you are tired.";
    const a = JSON.stringify(signals(text, CASUAL));
    const b = JSON.stringify(detectSignals(analyze(text), CASUAL));
    expect(a).to.equal(b);
  });

  it('returns nothing for empty or blank text', () => {
    expect(signals('')).to.deep.equal([]);
    expect(signals('   \n ', CASUAL)).to.deep.equal([]);
  });
});

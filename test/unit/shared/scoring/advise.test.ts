import { expect } from 'chai';
import { PROFILES } from '../../../../shared/profiles';
import { scoreText, type DimensionId, type ProfileResult } from '../../../../shared/scoring';
import { DIMENSION_PHRASES, EMPATHY_UP_PHRASES } from '../../../../shared/scoring/advice-phrases';
import { rewriteText } from '../../../../shared/rewrite/rewrite';
import { strengthFor } from '../../../../shared/scoring/advise';

const DIMS: readonly DimensionId[] = ['empathy', 'formality', 'directness', 'hesitation'];
const GRIEF_INCOMING = "My mom passed away last night and I can't stop crying. I don't know what to do.";

function deep(text: string, profile: string, incoming?: string): ProfileResult {
  return scoreText({ text, profile, incoming, deep: true }).result!;
}

function allPhrases(dim: DimensionId): string[] {
  const out: string[] = [];
  for (const dir of ['up', 'down'] as const) for (const s of ['full', 'mild'] as const) out.push(DIMENSION_PHRASES[dim][dir][s].prompt);
  if (dim === 'empathy') out.push(...Object.values(EMPATHY_UP_PHRASES).map((p) => p.prompt));
  return out;
}

interface Case {
  name: string;
  text: string;
  profile: string;
  incoming?: string;
  /** Prompt lines that must not appear. */
  never?: string[];
  /** Words no evidence span may be exactly. */
  notEvidence?: string[];
  /** Words no example may contain. */
  noExampleWord?: RegExp;
}

const CASES: Case[] = [
  {
    name: 'a warm grief reply that already acknowledges feelings is not told to acknowledge them',
    text: "Oh no, I'm so so sorry about your mom. That must feel awful. I'm here if you want to talk tonight, maybe?",
    profile: 'grief-support-peer',
    incoming: GRIEF_INCOMING,
    never: [EMPATHY_UP_PHRASES.er.prompt],
    notEvidence: ['no', '?', 'honestly'],
    noExampleWord: /restart|logs|cache|migration|deploy/i,
  },
  {
    name: 'an anxious overthinker full of apology is never told to keep sympathy to a few words',
    text: "Oh no, I'm so sorry, I'm really so sorry... that sounds awful and I feel terrible for you, I'm so sorry, I hope you're okay, sorry",
    profile: 'anxious-overthinker',
    incoming: "I failed my driving test again today.",
    never: [DIMENSION_PHRASES.empathy.down.full.prompt],
  },
  {
    name: 'bare-instruction evidence points at the instruction, not at "no", "?" or "honestly"',
    text: 'Oh no, honestly that is rough? Restart the router and call them tomorrow.',
    profile: 'shy-student',
    incoming: 'my internet died again',
    notEvidence: ['no', '?', 'honestly', 'Oh no'],
  },
  {
    name: 'a reply full of tells under the penalty cap still lists only steps that gain something',
    text: "As an AI language model, I cannot feel emotions. Certainly! It's worth noting that we should delve into this pivotal matter. I hope this helps! Let me know if you have any other questions.",
    profile: 'warm-casual-texter',
    incoming: 'my cat is sick',
  },
];

describe('advice that fits the reply', function () {
  for (const c of CASES) {
    it(c.name, function () {
      const r = deep(c.text, c.profile, c.incoming);
      const steps = r.advice.rewrite_guidance ?? [];
      // The step checks below are vacuous over no steps: a case that makes them must have some.
      if (c.notEvidence || c.noExampleWord || !c.never) expect(steps, 'rewrite guidance to check').to.not.be.empty;
      for (const line of c.never ?? []) expect(r.advice.suggested_prompt_addition).to.not.include(line);
      for (const s of steps) {
        expect(s.expected_gain, `${s.target} gains something`).to.be.above(0);
        for (const sp of s.spans) expect(c.notEvidence ?? [], `evidence "${sp.text}" of ${s.target}`).to.not.include(sp.text.trim());
        if (c.noExampleWord) expect(s.example).to.not.match(c.noExampleWord);
      }
    });
  }

  it('points the directness evidence of the instruction case at "Restart"', function () {
    const r = deep(CASES[2].text, CASES[2].profile, CASES[2].incoming);
    const step = (r.advice.rewrite_guidance ?? []).find((s) => s.target === 'directness');
    expect(step, 'a directness step').to.not.equal(undefined);
    expect(step!.spans.map((s) => s.text)).to.deep.equal(['Restart']);
  });

  it('gives no advice on a dimension already within its tolerance, for any profile', function () {
    const texts = [...CASES.map((c) => [c.text, c.incoming] as const), ['hey, sorry for the slow reply! yes, 6 works for me', 'are we still on for 6?'] as const];
    let checked = 0;
    for (const [text, incoming] of texts) {
      for (const p of PROFILES) {
        const r = deep(text, p.id, incoming);
        for (const dim of DIMS) {
          const d = r.dimensions[dim];
          if (Math.abs(d.delta) > d.tolerance) continue;
          checked++;
          for (const line of allPhrases(dim)) expect(r.advice.suggested_prompt_addition, `${p.id} ${dim}`).to.not.include(line);
          expect((r.advice.rewrite_guidance ?? []).map((s) => s.target), `${p.id} ${dim}`).to.not.include(dim);
        }
      }
    }
    expect(checked).to.be.above(100);
  });

  it('never pushes a dimension at full strength against the side of the profile', function () {
    const table: Array<[number, 'up' | 'down', 'full' | 'mild']> = [
      [0.9, 'up', 'full'],
      [0.9, 'down', 'mild'],
      [0.15, 'down', 'full'],
      [0.15, 'up', 'mild'],
      [0.5, 'up', 'full'],
      [0.49, 'down', 'full'],
    ];
    for (const [target, dir, strength] of table) expect(strengthFor(target, dir), `${target} ${dir}`).to.equal(strength);
  });

  describe('advice that agrees with what the reply already does', () => {
    // Every prompt line and rewrite action of a verdict, as one text.
    const adviceText = (r: ProfileResult) => [r.advice.suggested_prompt_addition, r.advice.improvement, ...(r.advice.rewrite_guidance ?? []).map((s) => s.action)].join(' | ');
    interface AgreeCase {
      name: string;
      text: string;
      profile: string;
      incoming?: string;
      role?: 'helper' | 'asker';
      /** Phrases none of the advice may contain. */
      never: (string | RegExp)[];
    }
    const AGREE: AgreeCase[] = [
      {
        name: 'a casual reply that contracts is never told "contractions always"',
        text: "honestly I'd just grab the 6pm train, it's way less packed and you'll still make dinner",
        profile: 'gen-z-group-chatter',
        incoming: 'which train should i take tomorrow?',
        never: [/contractions always/i, 'Use contractions'],
      },
      {
        name: 'a reply that only asks is never told to hedge a claim it did not make',
        text: 'Wait, which version are you on? And did it break after the update or before?',
        profile: 'anxious-overthinker',
        incoming: 'the app keeps crashing',
        never: [DIMENSION_PHRASES.hesitation.up.full.prompt, DIMENSION_PHRASES.hesitation.up.mild.prompt, /I think/],
      },
      {
        name: 'a duel reply that reflects the situation is never told to reflect back what they told you',
        text: "It sounds like you've been carrying the whole move on your own while everyone else stayed out of it.",
        profile: 'empathetic-counselor',
        incoming: "I've been packing the whole house alone and nobody in my family has helped once.",
        never: [EMPATHY_UP_PHRASES.ip.prompt, EMPATHY_UP_PHRASES.ip.action, EMPATHY_UP_PHRASES.er.prompt],
      },
      {
        name: 'a reply that already reacts is never told to acknowledge how they feel',
        text: "Oh no, I'm so sorry. Restart the router and call them tomorrow.",
        profile: 'grief-support-peer',
        incoming: 'my internet died again and I have a deadline tonight, I am so stressed',
        never: [EMPATHY_UP_PHRASES.er.prompt, EMPATHY_UP_PHRASES.er.action],
      },
      {
        name: "a role-play asker's turn gets no helper advice on answering feelings",
        text: 'I failed my driving test again today and I feel like an idiot.',
        profile: 'empathetic-counselor',
        role: 'asker',
        never: [...Object.values(EMPATHY_UP_PHRASES).flatMap((p) => [p.prompt, p.action]), DIMENSION_PHRASES.empathy.up.mild.prompt, DIMENSION_PHRASES.empathy.down.full.prompt],
      },
    ];
    for (const c of AGREE) {
      it(c.name, () => {
        const r = scoreText({ text: c.text, profile: c.profile, incoming: c.incoming, role: c.role, deep: true }).result!;
        const text = adviceText(r);
        for (const bad of c.never) {
          if (typeof bad === 'string') expect(text, c.name).to.not.include(bad);
          else expect(text, c.name).to.not.match(bad);
        }
      });
    }

    it('asks a reply that reflects but shows no feeling of its own for a reaction, not for acknowledgement', () => {
      const r = scoreText({
        text: "It sounds like you've been carrying the whole move on your own while everyone else stayed out of it.",
        profile: 'empathetic-counselor',
        incoming: "I've been packing the whole house alone and nobody in my family has helped once.",
        deep: true,
      }).result!;
      expect(adviceText(r)).to.include(EMPATHY_UP_PHRASES.reaction.action);
    });

    it('gives the same reply as a helper the empathy advice it withholds from an asker', () => {
      const text = 'I failed my driving test again today and I feel like an idiot.';
      const helper = scoreText({ text, profile: 'empathetic-counselor', role: 'helper', deep: true }).result!;
      expect((helper.advice.rewrite_guidance ?? []).map((s) => s.target)).to.include('empathy');
      const asker = scoreText({ text, profile: 'empathetic-counselor', role: 'asker', deep: true }).result!;
      expect((asker.advice.rewrite_guidance ?? []).map((s) => s.target)).to.not.include('empathy');
    });

    it('refuses an unknown role', () => {
      expect(() => scoreText({ text: 'hi there', profile: 'all', role: 'judge' as 'asker' })).to.throw(/role/);
    });

    it('never lets a rewrite delete the only empathetic sentence of a reply for a warm profile', () => {
      const text = "I'm so sorry you're going through this, I hope this helps. Restart the router and wait a minute before you try again.";
      const incoming = 'My internet keeps dying and I am so stressed, I have a deadline tonight.';
      for (const profile of ['warm-casual-texter', 'grief-support-peer', 'empathetic-counselor', 'upbeat-support-agent']) {
        const r = rewriteText({ text, profile, incoming });
        const fit = (t: string) => scoreText({ text: t, profile, incoming }).result!.dimensions.empathy.fit;
        expect(fit(r.text), profile).to.be.at.least(fit(text) - 5e-4);
        expect(r.text, profile).to.match(/sorry/i);
      }
    });
  });
});

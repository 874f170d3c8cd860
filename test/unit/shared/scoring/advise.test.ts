import { expect } from 'chai';
import { PROFILES } from '../../../../shared/profiles';
import { scoreText, type DimensionId, type ProfileResult } from '../../../../shared/scoring';
import { DIMENSION_PHRASES, EMPATHY_UP_PHRASES } from '../../../../shared/scoring/advice-phrases';
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
});

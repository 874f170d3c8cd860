import { expect } from 'chai';
import { analyze } from '../../../../shared/scoring/analyze';
import { measureEmpathy } from '../../../../shared/scoring/empathy';
import { EXPLORATION_OPENERS, REACTION_PHRASES, SHARED_EXPERIENCE_PHRASES, SUPPORT_PHRASES } from '../../../../shared/scoring/lexicons/empathy-theory';
import weights from '../../../../shared/scoring/weights/empathy.json';

function mechanisms(reply: string): { er: number; ip: number; ex: number } {
  return measureEmpathy(analyze(reply)).mechanisms;
}

describe('empathy phrases written from theory', () => {
  // Each case is one frame of empathy-theory.ts filled with words a data set never had to supply.
  const cases: [string, 'er' | 'ip' | 'ex'][] = [
    ['My heart aches for you.', 'er'], // strong reaction: a named feeling of the writer's
    ['Things are going to get better.', 'er'], // weak reaction: reassurance
    ["Don't blame yourself.", 'er'], // normalising (validation)
    ['If you ever want someone to talk to, message me.', 'er'], // presence and an offer to listen
    ['Something similar happened to me.', 'ip'], // understanding through a similar experience
    ['I lived with that for a while.', 'ip'],
    ['What was that like?', 'ex'], // an open question about the experience
    ['Is there anyone around?', 'ex'],
  ];
  for (const [reply, mechanism] of cases) {
    it(`marks "${reply}" as ${mechanism}`, () => {
      expect(mechanisms(reply)[mechanism]).to.be.greaterThan(0);
    });
  }

  it('does not explore with a statement that only contains an opener', () => {
    expect(mechanisms('What was that like, I wonder.').ex).to.equal(0);
  });

  it('lists no phrase twice within a category', () => {
    for (const list of [REACTION_PHRASES, SUPPORT_PHRASES, SHARED_EXPERIENCE_PHRASES, EXPLORATION_OPENERS]) {
      const phrases = list.map((e) => e.phrase);
      expect(new Set(phrases).size).to.equal(phrases.length);
    }
  });

  it('records that the fitted weights learned no vocabulary and where each came from', () => {
    expect(weights.fit.vocabulary).to.match(/^none learned from data/);
    expect(weights.fit.provenance.model).to.include('no phrase, word or n-gram');
    for (const source of weights.fit.sources) expect(weights.fit.provenance.model).to.include(source.name);
  });
});

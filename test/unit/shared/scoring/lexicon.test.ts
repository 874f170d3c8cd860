import { expect } from 'chai';
import fc from 'fast-check';
import { analyze } from '../../../../shared/scoring/analyze';
import { compileLexicon, matchLexicon, type Lexicon, type LexiconEntry } from '../../../../shared/scoring/lexicon';
import type { Analysis, LexiconHit } from '../../../../shared/scoring/types';

/** The plain scan matchLexicon must agree with: every phrase of the first word, longest first. */
function naiveMatch(a: Analysis, lex: Lexicon): LexiconHit[] {
  const matches = (at: number, parts: string[]) =>
    at + parts.length <= a.tokens.length && parts.every((p, k) => (p === '*' ? a.tokens[at + k].kind === 'word' : a.tokens[at + k].norm === p));
  const hits: LexiconHit[] = [];
  for (let i = 0; i < a.tokens.length; i++) {
    const found = (lex.byFirst.get(a.tokens[i].norm) ?? []).find((p) => matches(i, p.parts)) ?? lex.wildcardFirst.find((p) => matches(i, p.parts));
    if (!found) continue;
    const last = a.tokens[i + found.parts.length - 1];
    hits.push({ id: found.id, category: found.category, weight: found.weight, token: i, length: found.parts.length, start: a.tokens[i].start, end: last.end });
    i += found.parts.length - 1;
  }
  return hits;
}

const ENTRIES: LexiconEntry[] = [
  { phrase: 'i think', category: 'hedge' },
  { phrase: 'i', category: 'self' },
  { phrase: 'i * not', category: 'negated' },
  { phrase: 'i do not know', category: 'unsure' },
  { phrase: "i don't", category: 'negated' },
  { phrase: '* know', category: 'know' },
  { phrase: 'you know', category: 'filler' },
  { phrase: 'sort of', category: 'hedge' },
  { phrase: 'sort', category: 'noun' },
];

describe('matchLexicon', () => {
  it('finds the same phrases as a plain longest-first scan, wildcards included', () => {
    const lex = compileLexicon(ENTRIES);
    const word = fc.constantFrom('i', 'I', 'think', 'do', 'not', "don't", 'know', 'you', 'sort', 'of', 'the', 'cache', ',', '.', '?');
    fc.assert(
      fc.property(fc.array(word, { maxLength: 14 }), (words) => {
        const a = analyze(words.join(' '));
        expect(matchLexicon(a, lex)).to.deep.equal(naiveMatch(a, lex));
      }),
      { numRuns: 300 },
    );
  });

  it('prefers the longest phrase at a token and never overlaps hits', () => {
    const hits = matchLexicon(analyze('I do not know, sort of. I think you know'), compileLexicon(ENTRIES));
    expect(hits.map((h) => h.id)).to.deep.equal(['i do not know', 'sort of', 'i think', 'you know']);
  });
});

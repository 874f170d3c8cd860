import { stem } from '../scoring/stem';
import { FEELINGS } from './feelings';

/** One cue found in a reply: which feeling, and where (UTF-16 offsets into the reply). */
export interface FeelingCueHit {
  feeling: string;
  start: number;
  end: number;
  /** True when a negation before it cancels it ("you don't seem angry"); such hits do not count. */
  negated: boolean;
}

/** How a helper's reply was read: the feeling it names or implies most, or null, with the evidence. */
export interface FeelingReading {
  feeling: string | null;
  hits: FeelingCueHit[];
}

interface Token {
  /** The stem of a word, or the punctuation mark itself. */
  key: string;
  word: boolean;
  start: number;
  end: number;
}

// Words that negate a cue up to NEGATION_WINDOW words after them, within one clause.
const NEGATORS = new Set(['not', 'no', 'never', 'without', 'hardly', 'nor', 'neither', 'barely', 'nothing']);
const NEGATION_WINDOW = 3;
// Words that open a new clause: a negation before them does not reach past them.
const CLAUSE_WORDS = new Set(['but', 'though', 'although', 'yet', 'instead', 'rather']);
// Idioms that start with a negator and negate nothing: "no wonder you're anxious" reads anxiety.
const NOT_NEGATING = new Set(['no wonder', 'no doubt', 'not only', 'no matter']);

function isNegator(word: string): boolean {
  return NEGATORS.has(word) || /n['’]t$/.test(word) || word === 'cannot';
}

function tokenize(text: string): Array<Token & { raw: string }> {
  const tokens: Array<Token & { raw: string }> = [];
  for (const m of text.toLowerCase().matchAll(/[a-z]+(?:['’-][a-z]+)*|[.,;:!?()]/g)) {
    const raw = m[0];
    const word = /^[a-z]/.test(raw);
    tokens.push({ raw, key: word ? stem(raw) : raw, word, start: m.index, end: m.index + raw.length });
  }
  return tokens;
}

// Each cue compiled to its stems, longest first so "not alone" wins over "alone" at one place.
const CUES = FEELINGS.flatMap((f) => f.cues.map((cue) => ({ feeling: f.id, stems: tokenize(cue).map((t) => t.key) }))).sort(
  (a, b) => b.stems.length - a.stems.length,
);

function negatedAt(tokens: Array<Token & { raw: string }>, index: number): boolean {
  for (let i = index - 1, words = 0; i >= 0 && words < NEGATION_WINDOW; i--) {
    const t = tokens[i];
    if (!t.word || CLAUSE_WORDS.has(t.raw)) return false;
    if (isNegator(t.raw)) return !NOT_NEGATING.has(`${t.raw} ${tokens[i + 1]?.raw ?? ''}`);
    words += 1;
  }
  return false;
}

/**
 * Reads which of the published feelings a helper's reply names or implies. Deterministic: the reply
 * is split into words and punctuation; every cue of the lexicon (feelings.ts) is matched on word
 * stems, longest cue first, without overlaps; a cue with a negator (not, no, never, without,
 * hardly, any "n't") among the three words before it in the same clause is cancelled, except in
 * idioms that negate nothing ("no wonder", "no doubt", "not only", "no matter"). The reading
 * is the feeling with the most counted cues; a tie goes to the feeling named first; no counted cue
 * is no reading (null).
 * @param text - the helper's reply
 * @returns the reading and every cue found (negated ones included, marked)
 */
export function readFeeling(text: string): FeelingReading {
  const tokens = tokenize(text);
  const hits: FeelingCueHit[] = [];
  const taken = new Array<boolean>(tokens.length).fill(false);
  for (const cue of CUES) {
    for (let i = 0; i + cue.stems.length <= tokens.length; i++) {
      let match = true;
      for (let k = 0; k < cue.stems.length && match; k++) match = !taken[i + k] && tokens[i + k].key === cue.stems[k];
      if (!match) continue;
      for (let k = 0; k < cue.stems.length; k++) taken[i + k] = true;
      // A cue that carries its own negation ("not alone") is not negated again by it.
      const ownNegation = isNegator(tokens[i].raw);
      hits.push({ feeling: cue.feeling, start: tokens[i].start, end: tokens[i + cue.stems.length - 1].end, negated: !ownNegation && negatedAt(tokens, i) });
    }
  }
  hits.sort((a, b) => a.start - b.start);
  const counts = new Map<string, { n: number; first: number }>();
  for (const hit of hits) {
    if (hit.negated) continue;
    const c = counts.get(hit.feeling);
    if (c) c.n += 1;
    else counts.set(hit.feeling, { n: 1, first: hit.start });
  }
  let best: string | null = null;
  let bestCount = { n: 0, first: Infinity };
  for (const [feeling, c] of counts) {
    if (c.n > bestCount.n || (c.n === bestCount.n && c.first < bestCount.first)) {
      best = feeling;
      bestCount = c;
    }
  }
  return { feeling: best, hits };
}

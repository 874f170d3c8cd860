import { analyze } from './analyze';
import type { Analysis, LexiconHit } from './types';
import { wordFact, type Word } from './word';

/** One lexicon entry as stored in versioned data: a phrase, its category and weight. */
export interface LexiconEntry {
  phrase: string;
  category: string;
  weight?: number;
}

interface CompiledPhrase {
  id: string;
  category: string;
  weight: number;
  /** Normalized token texts; "*" matches any one word token. */
  parts: string[];
}

/**
 * The phrases of one first word, narrowed by the second: a bucket holds, in longest-first order,
 * the phrases whose second part is that word plus those that match whatever comes second (single
 * words and "*"). No other phrase of the first word can match there, so the first match in the
 * bucket is the first match in the whole list (speed: "i" or "is" start a dozen phrases each).
 */
interface SecondIndex {
  bySecond: Map<string, CompiledPhrase[]>;
  /** Single-word phrases and phrases with "*" second, for a second word no bucket names. */
  rest: CompiledPhrase[];
}

/** A phrase lexicon compiled for token-level matching. */
export interface Lexicon {
  byFirst: Map<string, CompiledPhrase[]>;
  wildcardFirst: CompiledPhrase[];
  /** byFirst, narrowed by the second word (see {@link SecondIndex}). */
  bySecond: Map<string, SecondIndex>;
  /** bySecond's entry for a token's word, or null, remembered with the word (see {@link wordFact}). */
  startingWith: (word: Word) => SecondIndex | null;
}

function indexSeconds(list: readonly CompiledPhrase[]): SecondIndex {
  const isRest = (p: CompiledPhrase) => p.parts.length === 1 || p.parts[1] === '*';
  const rest = list.filter(isRest);
  const bySecond = new Map<string, CompiledPhrase[]>();
  for (const p of list) {
    if (isRest(p) || bySecond.has(p.parts[1])) continue;
    const second = p.parts[1];
    bySecond.set(second, list.filter((q) => isRest(q) || q.parts[1] === second));
  }
  return { bySecond, rest };
}

/**
 * Compiles phrases with the same tokenizer the replies go through, so "don't" in a lexicon
 * matches "don't", "dont'" never, and "don’t" always. Compile each lexicon once, at module load
 * (its first-word lookup is a fact kept with each word, see {@link wordFact}).
 * @param entries - phrases with categories and weights
 * @returns a lexicon for {@link matchLexicon}
 */
export function compileLexicon(entries: readonly LexiconEntry[]): Lexicon {
  const byFirst = new Map<string, CompiledPhrase[]>();
  const wildcardFirst: CompiledPhrase[] = [];
  for (const entry of entries) {
    const parts = entry.phrase
      .split(/\s+/)
      .filter(Boolean)
      .flatMap((word) => (word === '*' ? ['*'] : analyze(word).tokens.map((t) => t.norm)));
    if (parts.length === 0) continue;
    const compiled: CompiledPhrase = {
      id: entry.phrase.toLowerCase(),
      category: entry.category,
      weight: entry.weight ?? 1,
      parts,
    };
    if (parts[0] === '*') {
      wildcardFirst.push(compiled);
      continue;
    }
    const list = byFirst.get(parts[0]) ?? [];
    list.push(compiled);
    byFirst.set(parts[0], list);
  }
  // Longest phrase first, so "i'm sorry to hear" wins over "i'm sorry" at the same token.
  for (const list of byFirst.values()) list.sort((a, b) => b.parts.length - a.parts.length || (a.id < b.id ? -1 : 1));
  const bySecond = new Map<string, SecondIndex>();
  for (const [first, list] of byFirst) bySecond.set(first, indexSeconds(list));
  return { byFirst, wildcardFirst, bySecond, startingWith: wordFact((norm: string) => bySecond.get(norm) ?? null) };
}

function matchesAt(a: Analysis, at: number, parts: string[]): boolean {
  if (at + parts.length > a.tokens.length) return false;
  for (let k = 0; k < parts.length; k++) {
    const t = a.tokens[at + k];
    if (parts[k] === '*' ? t.kind !== 'word' : t.norm !== parts[k]) return false;
  }
  return true;
}

function firstMatch(a: Analysis, at: number, phrases: readonly CompiledPhrase[]): CompiledPhrase | undefined {
  for (const p of phrases) if (matchesAt(a, at, p.parts)) return p;
  return undefined;
}

/**
 * Finds every non-overlapping lexicon phrase in the analyzed text, scanning left to right.
 * @param a - the analysis
 * @param lex - a compiled lexicon
 * @returns hits in text order
 */
export function matchLexicon(a: Analysis, lex: Lexicon): LexiconHit[] {
  const hits: LexiconHit[] = [];
  const tokens = a.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const seconds = lex.startingWith(tokens[i].word);
    let found: CompiledPhrase | undefined;
    if (seconds) found = firstMatch(a, i, (i + 1 < tokens.length && seconds.bySecond.get(tokens[i + 1].norm)) || seconds.rest);
    if (!found && lex.wildcardFirst.length) found = firstMatch(a, i, lex.wildcardFirst);
    if (!found) continue;
    const last = tokens[i + found.parts.length - 1];
    hits.push({
      id: found.id,
      category: found.category,
      weight: found.weight,
      token: i,
      length: found.parts.length,
      start: tokens[i].start,
      end: last.end,
    });
    i += found.parts.length - 1;
  }
  return hits;
}

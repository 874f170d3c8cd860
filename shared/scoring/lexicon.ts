import { analyze } from './analyze';
import type { Analysis, LexiconHit } from './types';

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

/** A phrase lexicon compiled for token-level matching. */
export interface Lexicon {
  byFirst: Map<string, CompiledPhrase[]>;
  wildcardFirst: CompiledPhrase[];
}

/**
 * Compiles phrases with the same tokenizer the replies go through, so "don't" in a lexicon
 * matches "don't", "dont'" never, and "don’t" always.
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
  return { byFirst, wildcardFirst };
}

function matchesAt(a: Analysis, at: number, parts: string[]): boolean {
  if (at + parts.length > a.tokens.length) return false;
  for (let k = 0; k < parts.length; k++) {
    const t = a.tokens[at + k];
    if (parts[k] === '*' ? t.kind !== 'word' : t.norm !== parts[k]) return false;
  }
  return true;
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
    const candidates = lex.byFirst.get(tokens[i].norm);
    let found: CompiledPhrase | undefined;
    if (candidates) found = candidates.find((p) => matchesAt(a, i, p.parts));
    if (!found && lex.wildcardFirst.length) found = lex.wildcardFirst.find((p) => matchesAt(a, i, p.parts));
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

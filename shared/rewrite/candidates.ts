import type { Profile } from '../profiles';
import type { ProfileResult } from '../scoring';
import {
  BY_THE_WAY,
  CONTRACTIONS,
  EMPATHY_CLOSERS,
  EMPATHY_OPENERS,
  EXPANSIONS,
  FORMAL_TO_CASUAL,
  HEDGE_DELETIONS,
  HEDGE_OPENERS,
  NO_HEDGE_BEFORE,
  DISTRESS,
  PLAIN_WORDS,
  PREAMBLE_SENTENCE,
  SLANG_TO_FORMAL,
  SOFTENING_CLOSER,
  SOFTENING_OPENERS,
  WARM_SENTENCE,
} from './phrase-banks';
import type { Candidate, RewriteDial, SpanEdit } from './text-edit';

/** A sentence of the original text: `[start, end)` from its first to its last non-space character. */
interface Sentence {
  start: number;
  end: number;
}

/** What a generator reads: the original text and the profile's current verdict on the rewrite so far. */
export interface GeneratorInput {
  text: string;
  /** The message being answered, when the caller sent it. */
  incoming?: string;
  sentences: Sentence[];
  profile: Profile;
  verdict: ProfileResult;
  words: number;
}

/**
 * Splits the text into sentences (terminal punctuation or a line break ends one).
 * @param text - the original text
 * @returns the sentences, trimmed, in order
 */
export function sentencesOf(text: string): Sentence[] {
  const out: Sentence[] = [];
  for (const m of text.matchAll(/[^.!?…\n]+(?:[.!?…]+["')\]]*|(?=\n)|$)/g)) {
    const raw = m[0];
    const lead = raw.length - raw.trimStart().length;
    const body = raw.trim();
    if (!body || !/[\p{L}\p{N}]/u.test(body)) continue;
    const start = (m.index ?? 0) + lead;
    out.push({ start, end: start + body.length });
  }
  return out;
}

const cand = (dial: RewriteDial, reason: string, ...parts: SpanEdit[]): Candidate => ({ dial, reason, parts });

/**
 * The given sentences deleted, each run of neighbours as one range with the space that separated
 * it from the text kept (undefined when nothing would be left).
 */
function deleteSentences(input: GeneratorInput, indices: readonly number[]): SpanEdit[] | undefined {
  const { sentences, text } = input;
  const gone = new Set(indices);
  if (gone.size === 0 || gone.size >= sentences.length) return undefined;
  const out: SpanEdit[] = [];
  for (let a = 0; a < sentences.length; a++) {
    if (!gone.has(a)) continue;
    let b = a;
    while (gone.has(b + 1)) b++;
    if (b + 1 < sentences.length) out.push({ start: sentences[a].start, end: sentences[b + 1].start, after: '' });
    else out.push({ start: sentences[a - 1].end, end: Math.max(sentences[b].end, text.trimEnd().length), after: '' });
    a = b;
  }
  return out;
}

/** The whole sentence `i` deleted, with the space that separated it from its neighbour. */
function deleteSentence(input: GeneratorInput, i: number): SpanEdit | undefined {
  return deleteSentences(input, [i])?.[0];
}

/** A closing addition: replaces the text's last character with itself plus `tail` (so it clashes with edits of that end). */
function closing(text: string, tail: string): SpanEdit {
  const end = text.trimEnd().length;
  const last = text[end - 1] ?? '';
  return { start: end - 1, end, after: /[.!?]/.test(last) ? last + tail : `${last}.${tail}` };
}

const isUpper = (c: string) => c !== c.toLowerCase() && c === c.toUpperCase();
const withCaseOf = (model: string, word: string) => (isUpper(model[0] ?? '') ? word[0].toUpperCase() + word.slice(1) : word);
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/'/g, "['’]");

/** Whether position `at` is the first letter of a sentence. */
function sentenceStartAt(input: GeneratorInput, at: number): boolean {
  return input.sentences.some((s) => s.start === at);
}

/**
 * A deletion of `[start, end)`; when it removes a sentence's opening words, the next letter is
 * capitalised in the same edit.
 */
function deletion(input: GeneratorInput, start: number, end: number): SpanEdit {
  const { text } = input;
  if (!sentenceStartAt(input, start)) return { start, end, after: '' };
  const next = text.slice(end).search(/\S/);
  if (next < 0) return { start, end, after: '' };
  const ch = text[end + next];
  return { start, end: end + next + 1, after: ch.toUpperCase() };
}

/** A word-list swap of every occurrence, case kept; `guard` may refuse one by its context. */
function swaps(input: GeneratorInput, dial: RewriteDial, pairs: ReadonlyArray<readonly [string, string]>, guard?: (end: number) => boolean): Candidate[] {
  const out: Candidate[] = [];
  for (const [from, to] of pairs) {
    const re = new RegExp(`(?<![\\w'’])${escape(from)}(?![\\w'’])`, 'gi');
    for (const m of input.text.matchAll(re)) {
      const start = m.index ?? 0;
      const end = start + m[0].length;
      if (guard && !guard(end)) continue;
      // "I" stays capital; otherwise the first letter follows the original.
      const after = /^i\b/i.test(to) ? to : withCaseOf(m[0], to);
      if (after === m[0]) continue;
      out.push(cand(dial, `${m[0]} -> ${after}`, { start, end, after }));
    }
  }
  return out;
}

const gap = (v: ProfileResult, dim: 'empathy' | 'formality' | 'directness' | 'hesitation') => {
  const d = v.dimensions[dim];
  if (Math.abs(d.delta) <= d.tolerance) return 0;
  return Math.sign(d.delta);
};

/** Canned assistant phrases, stock caveats, signposts, excess vocabulary, em dashes and markdown. */
export function cannedPhrases(input: GeneratorInput): Candidate[] {
  const { text, verdict, sentences } = input;
  const out: Candidate[] = [];
  // All canned sentences at once first: the boilerplate penalty saturates, so one deletion alone may not show.
  const canned = verdict.signals
    .filter((s) => s.id === 'assistant-boilerplate' || s.id === 'generic-caveat')
    .flatMap((s) => s.spans)
    .map((span) => sentences.findIndex((s) => s.start <= span.start && span.end <= s.end + 1))
    .filter((i) => i >= 0);
  const all = [...new Set(canned)];
  const together = all.length > 1 ? deleteSentences(input, all) : undefined;
  if (together) out.push(cand('canned-phrases', 'delete the canned sentences', ...together));
  for (const signal of verdict.signals) {
    if (signal.id === 'assistant-boilerplate' || signal.id === 'generic-caveat') {
      for (const span of signal.spans) {
        const i = sentences.findIndex((s) => s.start <= span.start && span.end <= s.end + 1);
        const del = i >= 0 ? deleteSentence(input, i) : undefined;
        if (del) out.push(cand('canned-phrases', `delete a sentence with a canned phrase (${signal.id})`, del));
      }
    } else if (signal.id === 'signposting') {
      for (const span of signal.spans) {
        const tail = /^(?:,| that,?)?\s*/.exec(text.slice(span.end))?.[0] ?? '';
        out.push(cand('canned-phrases', `delete "${span.text}"`, deletion(input, span.start, span.end + tail.length)));
      }
    } else if (signal.id === 'excess-vocab') {
      for (const span of signal.spans) {
        const plain = PLAIN_WORDS[span.text.toLowerCase()];
        if (plain) out.push(cand('canned-phrases', `${span.text} -> ${plain}`, { start: span.start, end: span.end, after: withCaseOf(span.text, plain) }));
      }
    } else if (signal.id === 'em-dash') {
      for (const span of signal.spans) {
        const spaced = text[span.start - 1] === ' ' && text[span.end] === ' ';
        out.push(cand('canned-phrases', 'em dash -> hyphen', { start: span.start, end: span.end, after: spaced ? '-' : ' - ' }));
      }
    }
  }
  // Markdown in a chat reply: list markers and headings at line start, bold markers.
  for (const m of text.matchAll(/^[ \t]*(?:[-*•]|\d+[.)]|#{1,6})[ \t]+/gm)) {
    out.push(cand('canned-phrases', 'drop the list or heading marker', { start: m.index ?? 0, end: (m.index ?? 0) + m[0].length, after: '' }));
  }
  for (const m of text.matchAll(/\*\*([^*\n]+)\*\*/g)) {
    const at = m.index ?? 0;
    out.push(cand('canned-phrases', 'drop the bold markers', { start: at, end: at + 2, after: '' }, { start: at + m[0].length - 2, end: at + m[0].length, after: '' }));
  }
  return out;
}

/**
 * Length: cut the reply after its k-th sentence (mutually exclusive options, best one wins), when
 * it runs past twice the profile's typical length.
 */
export function lengthCuts(input: GeneratorInput): Candidate[] {
  const { sentences, text, profile, words } = input;
  if (words <= 2 * profile.typicalWords || sentences.length < 2) return [];
  const end = text.trimEnd().length;
  return sentences.slice(0, -1).map((s, k) => cand('length', `keep the first ${k + 1} sentence(s)`, { start: s.end, end, after: '' }));
}

/** Contractions: contract for a reply more formal than the profile, expand for one less formal. */
export function contractions(input: GeneratorInput): Candidate[] {
  const dir = gap(input.verdict, 'formality');
  const noContractions = input.verdict.signals.some((s) => s.id === 'no-contractions');
  // A contraction of "it is" or "I am" before the sentence's end reads wrong ("what it's."): only before a word.
  const beforeWord = (end: number) => /^ +[\p{L}\p{N}]/u.test(input.text.slice(end));
  if (dir > 0 || noContractions) return swaps(input, 'contractions', CONTRACTIONS, beforeWord);
  if (dir < 0) return swaps(input, 'contractions', EXPANSIONS);
  return [];
}

/** Register: casing, end punctuation, slang and formal words, toward the profile's formality. */
export function register(input: GeneratorInput): Candidate[] {
  const { text, sentences, profile } = input;
  const dir = gap(input.verdict, 'formality');
  const out: Candidate[] = [];
  if (dir > 0) {
    out.push(...swaps(input, 'register', FORMAL_TO_CASUAL));
    if (profile.targets.formality <= 0.35) {
      for (const s of sentences) {
        const ch = text[s.start];
        if (isUpper(ch) && !/^I(?:\b|['’])/.test(text.slice(s.start))) out.push(cand('register', 'lowercase the sentence start', { start: s.start, end: s.start + 1, after: ch.toLowerCase() }));
      }
      const last = text.trimEnd();
      if (/[^.]\.$/.test(last)) out.push(cand('register', 'drop the final period', { start: last.length - 1, end: last.length, after: '' }));
    }
  } else if (dir < 0) {
    out.push(...swaps(input, 'register', SLANG_TO_FORMAL));
    for (const s of sentences) {
      const ch = text[s.start];
      if (ch !== ch.toUpperCase()) out.push(cand('register', 'capitalise the sentence start', { start: s.start, end: s.start + 1, after: ch.toUpperCase() }));
    }
    for (const m of text.matchAll(/(?<![\w'’])i(?![\w])/g)) out.push(cand('register', 'i -> I', { start: m.index ?? 0, end: (m.index ?? 0) + 1, after: 'I' }));
    for (const m of text.matchAll(/[!?]{2,}/g)) out.push(cand('register', 'single end mark', { start: m.index ?? 0, end: (m.index ?? 0) + m[0].length, after: m[0][0] }));
    for (const m of text.matchAll(/\s+\b(?:lol|lmao|haha+)\b/gi)) out.push(cand('register', `delete "${m[0].trim()}"`, { start: m.index ?? 0, end: (m.index ?? 0) + m[0].length, after: '' }));
    const last = text.trimEnd();
    if (/[\p{L}\p{N}]$/u.test(last)) out.push(cand('register', 'end with a period', { start: last.length, end: last.length, after: '.' }));
  }
  return out;
}

/** Hedges: delete hedges and fillers for a too-hesitant reply; open sentences with one for a too-certain reply. */
export function hedges(input: GeneratorInput): Candidate[] {
  const { text, sentences } = input;
  const dir = gap(input.verdict, 'hesitation');
  const out: Candidate[] = [];
  if (dir > 0) {
    for (const re of HEDGE_DELETIONS) {
      for (const m of text.matchAll(re)) out.push(cand('hedges', `delete "${m[0].trim()}"`, deletion(input, m.index ?? 0, (m.index ?? 0) + m[0].length)));
    }
    for (const m of text.matchAll(/(?:\.{3,}|…)(?=\s|$)/g)) out.push(cand('hedges', 'end the trailing-off sentence', { start: m.index ?? 0, end: (m.index ?? 0) + m[0].length, after: '.' }));
  } else if (dir < 0) {
    for (const s of sentences.slice(0, 3)) {
      const body = text.slice(s.start, s.end);
      const firstWord = /^[\p{L}']+/u.exec(body)?.[0].toLowerCase() ?? '';
      if (body.endsWith('?') || NO_HEDGE_BEFORE.has(firstWord)) continue;
      const keepCap = /^I(?:\b|['’])/.test(body);
      for (const opener of HEDGE_OPENERS) {
        const first = keepCap ? body[0] : body[0].toLowerCase();
        out.push(cand('hedges', `open with "${opener.trim()}"`, { start: s.start, end: s.start + 1, after: opener + first }));
      }
    }
    const last = sentences.at(-1);
    if (last && text[last.end - 1] === '.' && text[last.end - 2] !== '.') out.push(cand('hedges', 'trail off at the end', { start: last.end - 1, end: last.end, after: '...' }));
  }
  return out;
}

/** Directness: cushion a too-direct reply; drop preambles and "please" from a too-indirect one. */
export function directness(input: GeneratorInput): Candidate[] {
  const { text, sentences } = input;
  const dir = gap(input.verdict, 'directness');
  const out: Candidate[] = [];
  if (dir > 0 && sentences.length > 0) {
    const first = sentences[0];
    for (const opener of SOFTENING_OPENERS) {
      const ch = text[first.start];
      const next = opener.endsWith(', ') && !/^I(?:\b|['’])/.test(text.slice(first.start)) ? ch.toLowerCase() : ch;
      out.push(cand('directness', `open with "${opener.trim()}"`, { start: first.start, end: first.start + 1, after: opener + next }));
    }
    out.push(cand('directness', `close with "${SOFTENING_CLOSER.trim()}"`, closing(text, SOFTENING_CLOSER)));
    const lastS = sentences.at(-1);
    if (sentences.length > 1 && lastS) {
      const ch = text[lastS.start];
      const next = /^I(?:\b|['’])/.test(text.slice(lastS.start)) ? ch : ch.toLowerCase();
      out.push(cand('directness', `open the last sentence with "${BY_THE_WAY.trim()}"`, { start: lastS.start, end: lastS.start + 1, after: BY_THE_WAY + next }));
    }
  } else if (dir < 0) {
    sentences.slice(0, 2).forEach((s, i) => {
      if (!PREAMBLE_SENTENCE.test(text.slice(s.start, s.end))) return;
      const del = deleteSentence(input, i);
      if (del) out.push(cand('directness', 'delete a greeting, thanks or apology sentence', del));
    });
    for (const m of text.matchAll(/(?<=\S )please,? /gi)) out.push(cand('directness', 'delete "please"', { start: m.index ?? 0, end: (m.index ?? 0) + m[0].length, after: '' }));
  }
  return out;
}

/** Empathy: a warm opener or a question about the person when too cool; drop warm sentences when too warm. */
export function empathy(input: GeneratorInput): Candidate[] {
  const { text, sentences } = input;
  const dir = gap(input.verdict, 'empathy');
  const out: Candidate[] = [];
  if (dir < 0 && sentences.length > 0 && input.incoming !== undefined && DISTRESS.test(input.incoming)) {
    const first = sentences[0];
    // Replaces the first letter (kept as is), so it clashes with any other edit of the opening.
    for (const opener of EMPATHY_OPENERS) {
      out.push(cand('empathy', `open with "${opener.trim()}"`, { start: first.start, end: first.start + 1, after: opener + text[first.start] }));
    }
    for (const closer of EMPATHY_CLOSERS) out.push(cand('empathy', `close with "${closer.trim()}"`, closing(text, closer)));
  } else if (dir > 0) {
    sentences.forEach((s, i) => {
      if (!WARM_SENTENCE.test(text.slice(s.start, s.end))) return;
      const del = deleteSentence(input, i);
      if (del) out.push(cand('empathy', 'delete a warm sentence', del));
    });
  }
  return out;
}

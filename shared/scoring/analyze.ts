import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import type { Analysis, Sentence, Token } from './types';
import { stem } from './stem';

// One tagger per thread: loading the model costs ~100 ms, tagging a 100-word reply ~0.2 ms.
const nlp = winkNLP(model, ['sbd', 'pos']);
const its = nlp.its;

const CONTENT_POS = new Set(['NOUN', 'PROPN', 'VERB', 'ADJ']);

/** What the tagger's lexicon holds for one lexeme, with the two strings we derive from its text. */
interface Lexeme {
  value: string;
  type: string;
  lower: string;
  blank: boolean;
}

/**
 * Lexemes by the tagger's unique id. A token's value and type are properties of its lexeme, and
 * wink-nlp 2.4.0 never changes a lexeme once it has an id (new words are appended), so one pass for
 * the ids and a lookup here replace two property passes and a toLowerCase per token (~15 us of a
 * 100-word reply, issue 2). Stop words are not cached: for a contraction's parts the flag depends on
 * the expansion, not on the lexeme. Cleared when full, so a long-lived thread stays bounded.
 */
const LEXEMES = new Map<number, Lexeme>();
const MAX_LEXEMES = 100_000;

function lexemesOf(doc: ReturnType<typeof nlp.readDoc>): Lexeme[] {
  const ids = doc.tokens().out(its.uniqueId) as number[];
  const out = new Array<Lexeme>(ids.length);
  for (let i = 0; i < ids.length; i++) {
    let lexeme = LEXEMES.get(ids[i]);
    if (!lexeme) {
      const token = doc.tokens().itemAt(i);
      const value = token.out(its.value) as string;
      lexeme = { value, type: token.out(its.type) as string, lower: value.toLowerCase(), blank: value.trim() === '' };
      if (LEXEMES.size >= MAX_LEXEMES) LEXEMES.clear();
      LEXEMES.set(ids[i], lexeme);
    }
    out[i] = lexeme;
  }
  return out;
}

/**
 * Makes a same-length copy the tagger can read: curly apostrophes become straight (so "I’m"
 * splits like "I'm") and lone surrogates become U+FFFD (the tagger would replace them anyway).
 * Every code unit keeps its index, so offsets found in the copy are offsets in the original.
 */
export function normalizeForTagger(text: string): string {
  return text
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

/** True for the content words whose stems {@link Analysis.contentStems} collects. */
function isContentWord(t: Token): boolean {
  return t.kind === 'word' && !t.stop && CONTENT_POS.has(t.pos) && t.norm.length > 2 && !t.norm.includes("'");
}

/**
 * Analyzes a text once: tokens with exact character offsets, sentences, tags and content stems.
 * @param text - the original reply, unmodified
 * @returns the analysis every measure and signal reads
 */
export function analyze(text: string): Analysis {
  const copy = normalizeForTagger(text);
  const same = copy === text;
  const doc = nlp.readDoc(copy);
  const lexemes = lexemesOf(doc);
  const tags = doc.tokens().out(its.pos) as string[];
  const stops = doc.tokens().out(its.stopWordFlag) as unknown as boolean[];
  const spans = doc.sentences().out(its.span) as unknown as [number, number][];

  // Map wink token index -> our token index (we drop whitespace tokens).
  const indexOf = new Int32Array(lexemes.length).fill(-1);
  const tokens: Token[] = [];
  let cursor = 0;
  let words = 0;
  for (let i = 0; i < lexemes.length; i++) {
    const { value, type: kind } = lexemes[i];
    const at = copy.indexOf(value, cursor);
    // The tagger never reorders text; if it ever rewrote a token we keep the cursor honest.
    const start = at >= 0 ? at : Math.min(cursor, copy.length);
    const end = Math.min(copy.length, start + value.length);
    cursor = end;
    if (kind === 'tabCRLF' || lexemes[i].blank || end <= start) continue;
    indexOf[i] = tokens.length;
    const isWord = kind === 'word';
    if (isWord) words++;
    // When the token was found, value is exactly copy.slice(start, end), and the text slice too
    // when normalizing changed nothing.
    const found = at >= 0;
    tokens.push({
      text: found && same ? value : text.slice(start, end),
      norm: found ? lexemes[i].lower : copy.slice(start, end).toLowerCase(),
      start,
      end,
      pos: tags[i],
      kind,
      sentence: 0,
      stop: Boolean(stops[i]),
    });
  }

  const sentences: Sentence[] = [];
  for (const [from, to] of spans) {
    let first = -1;
    let last = -1;
    for (let i = Math.max(0, from); i <= to && i < lexemes.length; i++) {
      const t = indexOf[i];
      if (t < 0) continue;
      if (first < 0) first = t;
      last = t + 1;
    }
    if (first < 0) continue;
    const idx = sentences.length;
    let count = 0;
    for (let t = first; t < last; t++) {
      tokens[t].sentence = idx;
      if (tokens[t].kind === 'word') count++;
    }
    sentences.push({ start: tokens[first].start, end: tokens[last - 1].end, first, last, words: count });
  }

  // Only the incoming message's stems are ever read, so they are built on first use.
  let contentStems: Set<string> | undefined;
  return {
    text,
    tokens,
    sentences,
    words,
    get contentStems(): Set<string> {
      if (!contentStems) {
        contentStems = new Set<string>();
        for (const t of tokens) if (isContentWord(t)) contentStems.add(stem(t.norm));
      }
      return contentStems;
    },
  };
}

import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import type { Analysis, Sentence, Token } from './types';
import { stem } from './stem';

// One tagger per thread: loading the model costs ~100 ms, tagging a 100-word reply ~0.2 ms.
const nlp = winkNLP(model, ['sbd', 'pos']);
const its = nlp.its;

const CONTENT_POS = new Set(['NOUN', 'PROPN', 'VERB', 'ADJ']);

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

/**
 * Analyzes a text once: tokens with exact character offsets, sentences, tags and content stems.
 * @param text - the original reply, unmodified
 * @returns the analysis every measure and signal reads
 */
export function analyze(text: string): Analysis {
  const copy = normalizeForTagger(text);
  const doc = nlp.readDoc(copy);
  const values = doc.tokens().out(its.value) as string[];
  const kinds = doc.tokens().out(its.type) as string[];
  const tags = doc.tokens().out(its.pos) as string[];
  const stops = doc.tokens().out(its.stopWordFlag) as unknown as boolean[];
  const spans = doc.sentences().out(its.span) as unknown as [number, number][];

  // Map wink token index -> our token index (we drop whitespace tokens).
  const indexOf = new Int32Array(values.length).fill(-1);
  const tokens: Token[] = [];
  let cursor = 0;
  let words = 0;
  for (let i = 0; i < values.length; i++) {
    const kind = kinds[i];
    const value = values[i];
    const at = copy.indexOf(value, cursor);
    // The tagger never reorders text; if it ever rewrote a token we keep the cursor honest.
    const start = at >= 0 ? at : Math.min(cursor, copy.length);
    const end = Math.min(copy.length, start + value.length);
    cursor = end;
    if (kind === 'tabCRLF' || value.trim() === '' || end <= start) continue;
    indexOf[i] = tokens.length;
    const isWord = kind === 'word';
    if (isWord) words++;
    tokens.push({
      text: text.slice(start, end),
      norm: copy.slice(start, end).toLowerCase(),
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
    for (let i = Math.max(0, from); i <= to && i < values.length; i++) {
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

  const contentStems = new Set<string>();
  for (const t of tokens) {
    if (t.kind === 'word' && !t.stop && CONTENT_POS.has(t.pos) && t.norm.length > 2 && !t.norm.includes("'")) contentStems.add(stem(t.norm));
  }
  return { text, tokens, sentences, words, contentStems };
}

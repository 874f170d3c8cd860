import type { Word } from './word';

/** A half-open range of UTF-16 code units in the original reply, with the text it covers. */
export interface Span {
  start: number;
  end: number;
  text: string;
}

/** One token of the analyzed text (whitespace is not a token). */
export interface Token {
  /** Exact slice of the original text. */
  text: string;
  /** Lowercased, curly apostrophes straightened; used for every lexicon lookup. */
  norm: string;
  start: number;
  end: number;
  /** Universal POS tag from the tagger (NOUN, VERB, PRON, ...). */
  pos: string;
  /** Tokenizer class: word, number, punctuation, emoji, emoticon, url, email, symbol, ... */
  kind: string;
  /** Index of the sentence holding the token. */
  sentence: number;
  /** True for stop words (function words). */
  stop: boolean;
  /** The token's lexeme, with the facts the measures derive from its norm (norm is word.norm). */
  word: Word;
}

/** A sentence as token and character ranges. */
export interface Sentence {
  start: number;
  end: number;
  /** First token index (inclusive). */
  first: number;
  /** Last token index (exclusive). */
  last: number;
  words: number;
}

/** The once-per-text analysis every measure reads from. */
export interface Analysis {
  text: string;
  tokens: Token[];
  sentences: Sentence[];
  /** Number of word tokens (kind word), the unit of every rate. */
  words: number;
  /** Content-word stems (nouns, verbs, adjectives, proper nouns that are not stop words). */
  contentStems: Set<string>;
}

/** A lexicon hit: which entry matched where. */
export interface LexiconHit {
  id: string;
  category: string;
  weight: number;
  /** Index of the first matched token. */
  token: number;
  /** Number of tokens matched. */
  length: number;
  start: number;
  end: number;
}

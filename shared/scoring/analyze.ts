import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import type { Analysis, Sentence, Token } from './types';
import { stemOf } from './stem';
import { Word } from './word';

/** The part of wink's lexeme table we touch: text -> id, and the texts by id. */
interface LexemeTable {
  hash: Record<string, number>;
  list: string[];
  intrinsicSize: number;
}

/**
 * A tagger whose lexeme table we can reach. wink-nlp builds each instance's lexicon from the
 * model's `core()` and, reading a document, adds every out-of-vocabulary word to it; a later
 * document then finds that word there and keeps it whole where a fresh tagger would split it
 * ("SSRI's"). So scores would depend on what the thread read before. {@link analyze} forgets the
 * words each document added (see {@link forgetLexemesFrom}); this keeps a handle on the table.
 */
function createTagger() {
  let table: LexemeTable | undefined;
  const tagger = winkNLP(
    {
      ...model,
      core: () => {
        const core = (model as unknown as { core: () => object }).core();
        table = (core as unknown as { features: { lexeme: LexemeTable } }).features.lexeme;
        return core;
      },
    },
    ['sbd', 'pos'],
  );
  if (!table) throw new Error('wink-nlp did not load the model core');
  return { nlp: tagger, table };
}

// One tagger per thread: loading it costs ~60 ms, tagging a 100-word reply ~0.1 ms.
let tagger = createTagger();
const its = tagger.nlp.its;
// Forgotten words still take an id and a row (ids only grow): past this many the tagger is rebuilt.
const MAX_FORGOTTEN_LEXEMES = 250_000;

/**
 * Forgets the words the last document added to the tagger's lexicon, so the next document is
 * tokenized as by a fresh tagger. Their ids and rows stay (wink appends both in step), so the
 * tokens already read keep their values; the table's lookup no longer finds them.
 * @param from - the table's length before the document was read
 */
function forgetLexemesFrom(from: number): void {
  const { hash, list } = tagger.table;
  for (let id = from; id < list.length; id++) if (hash[list[id]] === id) delete hash[list[id]];
  if (list.length - tagger.table.intrinsicSize > MAX_FORGOTTEN_LEXEMES) {
    tagger = createTagger();
    LEXEMES.clear(); // ids start over in the new tagger
  }
}

/**
 * Whether a lowercased word is in the tagger model's own English lexicon (about 87,600 forms,
 * inflections included). Read after {@link analyze}: the words a document added are forgotten by then.
 * @param norm - the lowercased word
 * @returns true when the model ships the word
 */
export function inLexicon(norm: string): boolean {
  const id = tagger.table.hash[norm];
  return id !== undefined && id < tagger.table.intrinsicSize;
}

const CONTENT_POS = new Set(['NOUN', 'PROPN', 'VERB', 'ADJ']);

/**
 * What the tagger's lexicon holds for one lexeme, with what we derive from its text. It is the
 * {@link Word} of its tokens (norm: the lowercased text), whose facts the measures share.
 */
class Lexeme extends Word {
  /** Whitespace only (the tagger keeps some as tokens; we drop them). */
  readonly blank: boolean;

  constructor(
    readonly value: string,
    readonly type: string,
  ) {
    super(value.toLowerCase());
    this.blank = value.trim() === '';
  }
}

/**
 * Lexemes by the tagger's unique id. A token's value and type are properties of its lexeme, and
 * wink-nlp 2.4.0 never changes a lexeme once it has an id (new words are appended), so one pass for
 * the ids and a lookup here replace two property passes and a toLowerCase per token (~15 us of a
 * 100-word reply). The lexeme's {@link Word} carries the facts the measures derive from
 * its norm, so those are computed once per lexeme too. Stop words are not cached: for a
 * contraction's parts the flag depends on the expansion, not on the lexeme (and reading the flag
 * token by token costs more than the pass). Cleared when full, so a long-lived thread stays bounded.
 * A word outside the model's vocabulary gets a new id in every document (the tagger forgets it,
 * see {@link forgetLexemesFrom}); its entry is dropped with the others when the map is full.
 */
const LEXEMES = new Map<number, Lexeme>();
const MAX_LEXEMES = 100_000;

type TokenCollection = ReturnType<ReturnType<(typeof tagger)['nlp']['readDoc']>['tokens']>;

function lexemesOf(all: TokenCollection): Lexeme[] {
  const ids = all.out(its.uniqueId) as number[];
  const out = new Array<Lexeme>(ids.length);
  for (let i = 0; i < ids.length; i++) {
    let lexeme = LEXEMES.get(ids[i]);
    if (!lexeme) {
      const token = all.itemAt(i);
      const value = token.out(its.value) as string;
      lexeme = new Lexeme(value, token.out(its.type) as string);
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
 * An {@link Analysis} as a class, so contentStems can be built on first use by a prototype getter
 * (only the incoming message's stems are ever read). A getter in an object literal puts every
 * analysis in dictionary mode: each a.tokens read in the measures became a hash lookup, and the
 * getter's closure, allocated in old space, kept every analysis alive past young-generation
 * collections (~10% of a call in GC).
 */
class TextAnalysis implements Analysis {
  #contentStems: Set<string> | undefined = undefined;

  constructor(
    public text: string,
    public tokens: Token[],
    public sentences: Sentence[],
    public words: number,
  ) {}

  get contentStems(): Set<string> {
    if (!this.#contentStems) {
      const stems = new Set<string>();
      for (const t of this.tokens) if (isContentWord(t)) stems.add(stemOf(t.word));
      this.#contentStems = stems;
    }
    return this.#contentStems;
  }
}

/**
 * Analyzes a text once: tokens with exact character offsets, sentences, tags and content stems.
 * @param text - the original reply, unmodified
 * @returns the analysis every measure and signal reads
 */
export function analyze(text: string): Analysis {
  const copy = normalizeForTagger(text);
  const same = copy === text;
  const known = tagger.table.list.length;
  let lexemes: Lexeme[];
  let tags: string[];
  let stops: boolean[];
  let spans: [number, number][];
  try {
    const doc = tagger.nlp.readDoc(copy);
    // One collection for every pass: each tokens() call builds a fresh API object.
    const all = doc.tokens();
    lexemes = lexemesOf(all);
    tags = all.out(its.pos) as string[];
    stops = all.out(its.stopWordFlag) as unknown as boolean[];
    spans = doc.sentences().out(its.span) as unknown as [number, number][];
  } finally {
    // Everything below reads our copies, never the document.
    forgetLexemesFrom(known);
  }

  // Map wink token index -> our token index (we drop whitespace tokens). A plain array: a typed
  // array over 64 bytes lives outside the heap and costs ~0.3 us to allocate.
  const indexOf: number[] = new Array<number>(lexemes.length).fill(-1);
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
    const word = found ? lexemes[i] : new Word(copy.slice(start, end).toLowerCase());
    tokens.push({
      text: found && same ? value : text.slice(start, end),
      norm: word.norm,
      start,
      end,
      pos: tags[i],
      kind,
      sentence: 0,
      stop: Boolean(stops[i]),
      word,
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

  return new TextAnalysis(text, tokens, sentences, words);
}

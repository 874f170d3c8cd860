import { findPhoneNumbersInText, type CountryCode } from 'libphonenumber-js';
import LinkifyIt from 'linkify-it';
import { findNumberWords, SCALE_WORDS } from './number-words';

/** The kinds of checkable claims. */
export const CLAIM_KINDS = ['price', 'percentage', 'number', 'url', 'email', 'phone', 'product'] as const;

/** A kind of checkable claim. */
export type ClaimKind = (typeof CLAIM_KINDS)[number];

/**
 * One checkable claim in a text: its kind, the exact text, its UTF-16 offsets (as JavaScript
 * strings index, `text.slice(start, end)`), and its canonical value. Two claims state the same
 * thing when kind and value are equal, however they were written.
 */
export interface Claim {
  kind: ClaimKind;
  text: string;
  start: number;
  end: number;
  /**
   * Canonical value: `USD 5.00` (price), `50%` (percentage), `1500` (number), `+14155552671`
   * (phone, E.164), `acme.io/pricing` (URL without http(s)://, www. and trailing slash),
   * `sales@acme.io` (email, lowercase), `acme pro plan` (product name, lowercase).
   */
  value: string;
}

/** Options of {@link extractClaims}. */
export interface ExtractOptions {
  /** Product names known beforehand (e.g. from the approved facts): found in any letter case. */
  knownProducts?: readonly string[];
  /** Region of phone numbers written without a country code (ISO 3166-1 alpha-2). */
  defaultCountry?: CountryCode;
}

const linkify = new LinkifyIt();

// Currency marks before the amount ("$5", "US$ 5", "EUR 5") and words after it ("5 USD", "5 dollars").
const PREFIX_CURRENCY: ReadonlyArray<[RegExp, string]> = [
  [/US\$\s?$/, 'USD'],
  [/\$\s?$/, 'USD'],
  [/€\s?$/, 'EUR'],
  [/£\s?$/, 'GBP'],
  [/(?<![\p{L}\p{N}])USD\s$/iu, 'USD'],
  [/(?<![\p{L}\p{N}])EUR\s$/iu, 'EUR'],
  [/(?<![\p{L}\p{N}])GBP\s$/iu, 'GBP'],
];
const SUFFIX_CURRENCY: ReadonlyArray<[RegExp, string, number]> = [
  [/^\s?(?:USD|US dollars?|dollars?|bucks)(?![\p{L}\p{N}])/iu, 'USD', 1],
  [/^\s?(?:EUR|euros?)(?![\p{L}\p{N}])/iu, 'EUR', 1],
  [/^\s?GBP(?![\p{L}\p{N}])/iu, 'GBP', 1],
  [/^\s?cents?(?![\p{L}\p{N}])/iu, 'USD', 0.01],
  [/^\s?€/u, 'EUR', 1],
];
const PERCENT_SUFFIX = /^\s?(?:%|percent(?![\p{L}\p{N}])|per cent(?![\p{L}\p{N}])|pct(?![\p{L}\p{N}]))/iu;
const SCALE_SUFFIX = new RegExp(`^\\s(${Object.keys(SCALE_WORDS).join('|')})(?![\\p{L}\\p{N}])`, 'iu');
const DIGITS = /\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?/g;

// Words that start a sentence, an instruction or a greeting rather than a name: dropped from the
// ends of a run of capitalized words ("Our Acme Pro" and "Try Acme Pro" are the product "Acme Pro").
const LEADING_WORDS = new Set(
  [
    'a an and as at but by for from hello hi hey dear if in it its my no of on or our please so thanks thank that the their',
    'these this those to we yes you your with also all any ask book both buy call check click contact each email enjoy every',
    'find get go here how join just learn mail many meet more most now only order over pick reach read save see shop sign some',
    'start subscribe text then there today try upgrade use visit what when where which who why',
  ]
    .join(' ')
    .split(' '),
);

/**
 * Every checkable claim in a text, in text order, without overlaps: URLs and emails (linkify-it),
 * phone numbers (libphonenumber-js), prices and percentages (digits or number words with a
 * currency or percent mark), product names, and the other numbers. A product name is a name from
 * `knownProducts` (any case), or a run of two or more capitalized words on one line (leading
 * articles, pronouns and greetings dropped; digits may follow a capitalized word, "Acme 360").
 * A spelled-out "one" alone is not a number (it is mostly a pronoun); a number glued to letters
 * ("3rd", "mp3") is not one either.
 * @param text - the text to read
 * @param options - known product names and the default phone region
 * @returns the claims, sorted by offset
 */
export function extractClaims(text: string, options: ExtractOptions = {}): Claim[] {
  const claims: Claim[] = [];
  // Which code units a claim already covers: overlap checks stay linear in the claim's length.
  const taken = new Uint8Array(text.length);
  const free = (start: number, end: number) => {
    for (let i = start; i < end; i++) if (taken[i]) return false;
    return true;
  };
  const add = (kind: ClaimKind, start: number, end: number, value: string) => {
    if (start >= end || !free(start, end)) return;
    taken.fill(1, start, end);
    claims.push({ kind, text: text.slice(start, end), start, end, value });
  };

  for (const m of linkify.match(text) ?? []) {
    if (m.schema === 'mailto:') add('email', m.index, m.lastIndex, m.url.replace(/^mailto:/i, '').toLowerCase());
    else add('url', m.index, m.lastIndex, canonicalUrl(m.url));
  }
  for (const p of findPhoneNumbersInText(text, { defaultCountry: options.defaultCountry ?? 'US' })) {
    add('phone', p.startsAt, p.endsAt, p.number.number);
  }

  const numbers = numericExpressions(text);
  for (const n of numbers) if (n.kind !== 'number') add(n.kind, n.start, n.end, n.value);
  for (const run of knownNames(text, options.knownProducts ?? [])) add('product', run.start, run.end, productValue(run.text));
  for (const run of capitalizedRuns(text, free)) add('product', run.start, run.end, productValue(run.text));
  for (const n of numbers) if (n.kind === 'number' && !n.loneOne) add('number', n.start, n.end, n.value);
  return claims.sort((a, b) => a.start - b.start);
}

/**
 * The canonical form of a URL: no http(s) scheme, no `www.`, host in lowercase, no trailing slash.
 * @param url - a URL as linkify-it normalizes it
 * @returns the canonical form
 */
export function canonicalUrl(url: string): string {
  const withoutScheme = url.replace(/^https?:\/\//i, '');
  const slash = withoutScheme.search(/[/?#]/);
  const host = (slash < 0 ? withoutScheme : withoutScheme.slice(0, slash)).toLowerCase().replace(/^www\./, '').replace(/:(80|443)$/, '');
  const rest = slash < 0 ? '' : withoutScheme.slice(slash);
  return `${host}${rest}`.replace(/\/+(?=$|[?#])/, '');
}

function productValue(name: string): string {
  return name.toLowerCase().split(/\s+/).join(' ');
}

const WORD = /[\p{L}\p{N}]+(?:['’&+-][\p{L}\p{N}]+)*/gu;

function wordsOf(text: string): Array<{ word: string; start: number; end: number }> {
  return [...text.matchAll(WORD)].map((m) => ({ word: m[0], start: m.index, end: m.index + m[0].length }));
}

// Known names in any letter case, longest first at each word, as word sequences split by
// whitespace: one pass over the text's words, however many names the approved material has.
function knownNames(text: string, names: readonly string[]): Run[] {
  const known = new Set(names.map(productValue));
  if (known.size === 0) return [];
  const longest = Math.max(...[...known].map((n) => n.split(' ').length));
  const words = wordsOf(text);
  const runs: Run[] = [];
  for (let i = 0; i < words.length; i++) {
    let joined = '';
    let match = -1;
    for (let j = i; j < words.length && j - i < longest; j++) {
      if (j > i && !/^\s+$/.test(text.slice(words[j - 1].end, words[j].start))) break;
      joined = j === i ? words[j].word.toLowerCase() : `${joined} ${words[j].word.toLowerCase()}`;
      if (known.has(joined)) match = j;
    }
    if (match >= 0) {
      runs.push({ start: words[i].start, end: words[match].end, text: text.slice(words[i].start, words[match].end) });
      i = match;
    }
  }
  return runs;
}

interface NumericExpression {
  kind: 'price' | 'percentage' | 'number';
  start: number;
  end: number;
  value: string;
  /** A spelled-out "one" with no currency or percent mark. */
  loneOne: boolean;
}

function numericExpressions(text: string): NumericExpression[] {
  const raw: Array<{ start: number; end: number; value: number; loneOne: boolean }> = [];
  for (const m of text.matchAll(DIGITS)) {
    const literal = m[0];
    const start = m.index;
    let end = start + literal.length;
    // "v2.5.1", "x402", "3rd", "1.2.3": part of a word or a version, not a quantity.
    if (/[\p{L}\p{N}_.]/u.test(text[start - 1] ?? '') || /[\p{L}_]/u.test(text[end] ?? '') || /^\.\d/.test(text.slice(end))) continue;
    let value = Number(literal.replace(/,/g, ''));
    const scale = SCALE_SUFFIX.exec(text.slice(end));
    if (scale) {
      value *= SCALE_WORDS[scale[1].toLowerCase()];
      end += scale[0].length;
    }
    raw.push({ start, end, value, loneOne: false });
  }
  for (const w of findNumberWords(text)) raw.push({ start: w.start, end: w.end, value: w.value, loneOne: w.words === 1 && w.value === 1 });

  return raw.map(({ start, end, value, loneOne }) => {
    const before = text.slice(Math.max(0, start - 4), start);
    const after = text.slice(end);
    const percent = PERCENT_SUFFIX.exec(after);
    if (percent) return { kind: 'percentage' as const, start, end: end + percent[0].length, value: `${plain(value)}%`, loneOne: false };
    let currency: string | undefined;
    let from = start;
    let to = end;
    let factor = 1;
    for (const [pattern, code] of PREFIX_CURRENCY) {
      const m = pattern.exec(before);
      if (m) {
        currency = code;
        from = start - m[0].length;
        break;
      }
    }
    for (const [pattern, code, f] of SUFFIX_CURRENCY) {
      const m = pattern.exec(after);
      if (m && (currency === undefined || currency === code) && !(f !== 1 && currency !== undefined)) {
        currency = code;
        factor = f;
        to = end + m[0].length;
        break;
      }
    }
    if (currency) return { kind: 'price' as const, start: from, end: to, value: `${currency} ${(value * factor).toFixed(2)}`, loneOne: false };
    return { kind: 'number' as const, start, end, value: plain(value), loneOne };
  });
}

function plain(value: number): string {
  return String(Number(value.toFixed(6)));
}

interface Run {
  start: number;
  end: number;
  text: string;
}

// Runs of capitalized words (or digits after one) separated by single spaces, on one line.
function capitalizedRuns(text: string, free: (start: number, end: number) => boolean): Run[] {
  const tokens = wordsOf(text);
  const runs: Run[] = [];
  let current: typeof tokens = [];
  const flush = () => {
    while (current.length > 0 && (LEADING_WORDS.has(current[0].word.toLowerCase()) || /^\p{N}/u.test(current[0].word))) current.shift();
    while (current.length > 0 && LEADING_WORDS.has(current[current.length - 1].word.toLowerCase())) current.pop();
    const named = current.filter((t) => isCapitalized(t.word)).length;
    if (current.length >= 2 && named >= 2 - (current.some((t) => /^\p{N}+$/u.test(t.word)) ? 1 : 0)) {
      const start = current[0].start;
      const end = current[current.length - 1].end;
      runs.push({ start, end, text: text.slice(start, end) });
    }
    current = [];
  };
  for (const token of tokens) {
    const joinable = isCapitalized(token.word) || (/^\p{N}+$/u.test(token.word) && current.length > 0);
    const adjacent = current.length > 0 && /^[ \t]$/.test(text.slice(current[current.length - 1].end, token.start));
    if (!joinable || !free(token.start, token.end)) {
      flush();
      continue;
    }
    if (current.length > 0 && !adjacent) flush();
    current.push(token);
  }
  flush();
  return runs;
}

function isCapitalized(word: string): boolean {
  // "I" is a pronoun; "iPhone", "eBay" are names.
  return word !== 'I' && (/^\p{Lu}/u.test(word) || /^\p{Ll}+\p{Lu}/u.test(word));
}

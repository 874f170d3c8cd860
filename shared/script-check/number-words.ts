// Spelled-out English numbers up to the billions ("five", "twenty-five", "one hundred and two",
// "two thousand five hundred"), so "five dollars" and "$5" compare as the same value.

const UNITS: Readonly<Record<string, number>> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9,
};
const TEENS: Readonly<Record<string, number>> = {
  ten: 10, eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
};
const TENS: Readonly<Record<string, number>> = {
  twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
};
const SCALES: Readonly<Record<string, number>> = { thousand: 1_000, million: 1_000_000, billion: 1_000_000_000 };

type Category = 'unit' | 'teen' | 'tens' | 'hundred' | 'scale';

function categoryOf(word: string): Category | undefined {
  if (word in UNITS) return 'unit';
  if (word in TEENS) return 'teen';
  if (word in TENS) return 'tens';
  if (word === 'hundred') return 'hundred';
  if (word in SCALES) return 'scale';
  return undefined;
}

// Which word may follow which: "twenty five" but never "five five" or "twenty thirty", which are
// two numbers (or none), not one.
const FOLLOWS: Readonly<Record<Category, readonly Category[]>> = {
  unit: ['hundred', 'scale'],
  teen: ['hundred', 'scale'],
  tens: ['unit', 'hundred', 'scale'],
  hundred: ['unit', 'teen', 'tens', 'scale'],
  scale: ['unit', 'teen', 'tens'],
};

/** A spelled-out number found in a text: UTF-16 offsets, its value, and how many number words it has. */
export interface NumberWordsMatch {
  start: number;
  end: number;
  value: number;
  words: number;
}

/** The words a spelled number is read from (scale words are also read after digits: "2.5 million"). */
export const SCALE_WORDS = SCALES;

/**
 * Every spelled-out number in a text, longest first from left to right. Words join with spaces or
 * hyphens ("twenty-five"), and "and" after "hundred" or a scale ("one hundred and two").
 * @param text - any text
 * @returns the numbers with their offsets
 */
export function findNumberWords(text: string): NumberWordsMatch[] {
  const words = [...text.matchAll(/\p{L}+/gu)].map((m) => ({ word: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length }));
  const found: NumberWordsMatch[] = [];
  let i = 0;
  while (i < words.length) {
    const first = categoryOf(words[i].word);
    if (!first || first === 'hundred' || first === 'scale' || !bounded(text, words[i].start, words[i].end)) {
      i += 1;
      continue;
    }
    let last: Category = first;
    let total = 0;
    let current = add(0, words[i].word);
    let endIndex = i;
    let j = i + 1;
    while (j < words.length) {
      let next = j;
      const gap = text.slice(words[endIndex].end, words[next].start);
      if (words[next].word === 'and' && (last === 'hundred' || last === 'scale') && /^\s+$/.test(gap) && next + 1 < words.length) {
        const afterAnd = text.slice(words[next].end, words[next + 1].start);
        if (!/^\s+$/.test(afterAnd)) break;
        next += 1;
      } else if (!/^(\s+|-)$/.test(gap)) {
        break;
      }
      const category = categoryOf(words[next].word);
      if (!category || !FOLLOWS[last].includes(category) || !bounded(text, words[next].start, words[next].end)) break;
      if (category === 'hundred') current = (current || 1) * 100;
      else if (category === 'scale') {
        total += (current || 1) * SCALES[words[next].word];
        current = 0;
      } else current = add(current, words[next].word);
      last = category;
      endIndex = next;
      j = next + 1;
    }
    found.push({ start: words[i].start, end: words[endIndex].end, value: total + current, words: endIndex - i + 1 });
    i = endIndex + 1;
  }
  return found;
}

function add(current: number, word: string): number {
  return current + (UNITS[word] ?? TEENS[word] ?? TENS[word] ?? 0);
}

// A number word glued to digits or other letters ("one2", "x-one") is not read.
function bounded(text: string, start: number, end: number): boolean {
  return !/[\p{L}\p{N}_]/u.test(text[start - 1] ?? '') && !/[\p{L}\p{N}_]/u.test(text[end] ?? '');
}

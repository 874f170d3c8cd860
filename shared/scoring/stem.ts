import { wordFact, type Word } from './word';

const SUFFIXES = ['ingly', 'ings', 'ing', 'edly', 'ed', 'es', 's', 'ly'];

/**
 * A light suffix stripper for matching content words between the reply and the incoming message
 * ("worried" ~ "worry", "deploys" ~ "deploying"). Recall matters more than linguistic accuracy here.
 * @param word - a lowercased word
 * @returns its stem
 */
export function stem(word: string): string {
  let w = word;
  if (w.length > 5 && w.endsWith('ies')) return w.slice(0, -3) + 'y';
  if (w.length > 5 && w.endsWith('ied')) return w.slice(0, -3) + 'y';
  for (const suffix of SUFFIXES) {
    if (w.length - suffix.length >= 3 && w.endsWith(suffix)) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  if (w.length > 3 && w[w.length - 1] === w[w.length - 2] && !'aeiouls'.includes(w[w.length - 1])) w = w.slice(0, -1);
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

/**
 * The {@link stem} of a token's word, computed once per word.
 * @param word - the token's word
 * @returns the stem of its norm
 */
export const stemOf: (word: Word) => string = wordFact(stem);

/** Fact slots taken so far: a fact takes one on its first read (see {@link wordFact}). */
let slots = 0;

/**
 * A normalized token text, shared by every token of one lexeme of the tagger. Each measure derives
 * a few facts from a token's norm (is it a pronoun, a trigger word, a listed contraction); kept
 * here, each fact is computed once per lexeme per thread, and reading it per token is a property
 * load instead of a map lookup (about a dozen lookups per token across the measures).
 */
export class Word {
  /** Facts by slot, filled on first use; sized for every slot taken so far, so it rarely regrows. */
  readonly facts: unknown[] = new Array(slots);

  /**
   * @param norm - the normalized token text every fact is derived from
   */
  constructor(readonly norm: string) {}
}

/**
 * Declares a fact about words. Declare facts once, at module load; a fact that is never read
 * takes no room in the words.
 * @param compute - derives the fact from a norm; must be pure (the result is cached per word) and
 *   must not return undefined
 * @returns a reader of the fact for a word
 */
export function wordFact<T>(compute: (norm: string) => T): (word: Word) => T {
  let slot = -1;
  return function readFact(word: Word): T {
    if (slot < 0) slot = slots++;
    const known = word.facts[slot];
    if (known !== undefined) return known as T;
    const fact = compute(word.norm);
    word.facts[slot] = fact;
    return fact;
  };
}

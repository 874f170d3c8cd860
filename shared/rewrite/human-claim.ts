// The rewriter must never make a text pass as a person: no claim to be human, no denial of being an
// AI, no invented lived experience. The phrase banks never contain such words; this
// guard checks every candidate's result anyway, so a future phrase cannot slip one in.

const HUMAN_CLAIM =
  /\b(?:i(?:'m|’m| am) (?:a |an |just a )?(?:human|real person|person|real|not (?:an? )?(?:ai|a\.i\.|bot|robot|machine|language model|assistant|program|chatbot))|not an ai|as a (?:human|person)|i(?:'ve|’ve| have) been (?:there|through)|when i was (?:a )?(?:kid|child|young|little|your age)|my (?:wife|husband|kids?|children|mom|dad|mother|father|family))\b/gi;

// Truthful AI self-disclosure the rewriter must keep whenever the original has it.
const AI_DISCLOSURE = /\b(?:as an? (?:ai|a\.i\.|language model|large language model|assistant|chatbot)|i(?:'m|’m| am) an? (?:ai|bot|language model|assistant|chatbot))\b/gi;

const count = (re: RegExp, text: string) => text.match(re)?.length ?? 0;

/**
 * Whether a rewrite is acceptable on honesty grounds: it adds no claim to be human (or to have a
 * human life) and removes none of the original's AI self-disclosures.
 * @param original - the text before the rewrite
 * @param rewritten - the text after it
 * @returns true when the rewrite is honest
 */
export function keepsAiHonesty(original: string, rewritten: string): boolean {
  return count(HUMAN_CLAIM, rewritten) <= count(HUMAN_CLAIM, original) && count(AI_DISCLOSURE, rewritten) >= count(AI_DISCLOSURE, original);
}

/**
 * Whether a text claims to be human or denies being an AI (used by the tests and the guard).
 * @param text - any text
 * @returns true when it does
 */
export function claimsHuman(text: string): boolean {
  return count(HUMAN_CLAIM, text) > 0;
}

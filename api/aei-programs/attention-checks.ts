import type { Scale, ScaleRatings } from './rating-scales';

/**
 * Attention checks of the wording review: the service's own text that says plainly how to rate
 * it, so a rater who reads the item passes. A failed check is only counted: a rater who fails
 * {@link EXCLUDING_FAILURES} is left out of calibration, and nothing else changes for them.
 */
export interface AttentionCheck {
  /** Stable key (items refer to it). */
  key: string;
  text: string;
  /** The answer the text asks for, on the scales it names. */
  expect: Partial<ScaleRatings>;
}

/** Failed checks from which a rater's ratings leave the calibration set. */
export const EXCLUDING_FAILURES = 2;

/** The checks, in the order a session meets them. */
export const ATTENTION_CHECKS: readonly AttentionCheck[] = [
  {
    key: 'ac-1',
    text: 'This item checks that the scales are read: please rate it 1 on "how human" and 5 on "how warm"; rate the others as you like.',
    expect: { human: 1, warm: 5 },
  },
  {
    key: 'ac-2',
    text: 'Thanks for reading carefully. For this one item, choose 5 on "how direct" and 1 on "how hesitant"; the other two are up to you.',
    expect: { direct: 5, hesitant: 1 },
  },
  {
    key: 'ac-3',
    text: 'A quick attention check: set "how hesitant" to 5 and "how human" to 5 for this item; the rest may be anything.',
    expect: { hesitant: 5, human: 5 },
  },
];

const BY_KEY = new Map(ATTENTION_CHECKS.map((c) => [c.key, c]));

/**
 * The check of a key.
 * @param key - the check's key
 * @returns the check, or undefined
 */
export function attentionCheck(key: string): AttentionCheck | undefined {
  return BY_KEY.get(key);
}

/**
 * Whether ratings answer a check as its text asks.
 * @param check - the check
 * @param ratings - the rater's ratings of it
 * @returns true when every named scale has the asked value
 */
export function passesCheck(check: AttentionCheck, ratings: ScaleRatings): boolean {
  return (Object.entries(check.expect) as Array<[Scale, number]>).every(([scale, value]) => ratings[scale] === value);
}

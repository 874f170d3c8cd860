import type { DimensionId } from '../scoring/measure-types';

/** How fast and how variably a person replies. */
export interface Tempo {
  /** Copy-typing speed on the person's usual device, words per minute (compose speed is 0.6x). */
  typeWpm: number;
  /** Base think time in seconds before typing. */
  thinkSeconds: number;
  /** Log-normal spread of the delay around the expected value. */
  sigma: number;
  /** Silent reading speed for the incoming message, words per minute. */
  readWpm: number;
}

/** Hand-reviewed exceptions to the defaults for one profile. */
export interface ProfileOverrides {
  /** Dimension weights (empathy, formality, directness, hesitation, timing); renormalized. */
  weights?: Partial<Record<DimensionId | 'timing', number>>;
  /** Machine signals that do not apply to this person (their normal style would trip them). */
  exemptSignals?: string[];
}

/** One of the 28 fixed human personality profiles. */
export interface Profile {
  id: string;
  name: string;
  description: string;
  targets: Record<DimensionId, number>;
  tempo: Tempo;
  /** Typical reply length in words; length-mismatch fires above 3x. */
  typicalWords: number;
  overrides: ProfileOverrides;
}

import type { ScoreResult } from '../../shared/scoring';

/**
 * The four scales a rater (and a pilot participant rating an agent's turn) answers, each a fixed
 * integer scale from {@link SCALE_MIN} to {@link SCALE_MAX}. Each maps to one engine output on
 * 0..1, which the calibration report sets the ratings against.
 */
export const SCALES = ['human', 'warm', 'direct', 'hesitant'] as const;

/** One scale. */
export type Scale = (typeof SCALES)[number];

/** Lowest point of every scale. */
export const SCALE_MIN = 1;
/** Highest point of every scale. */
export const SCALE_MAX = 5;

/** The question of each scale, as a rater reads it. */
export const SCALE_QUESTIONS: Record<Scale, string> = {
  human: 'How human does this reply read? (1: clearly a machine, 5: clearly a person)',
  warm: 'How warm is it, how attuned to the other person? (1: cold, 5: very warm)',
  direct: 'How direct is it? (1: very indirect, 5: straight to the point)',
  hesitant: 'How hesitant or tentative is it? (1: fully certain, 5: very hesitant)',
};

/** The engine output each scale is compared with. */
export const ENGINE_FIELD: Record<Scale, string> = {
  human: 'human_likeness / 100',
  warm: 'measures.empathy',
  direct: 'measures.directness',
  hesitant: 'measures.hesitation',
};

/** Ratings on all four scales. */
export type ScaleRatings = Record<Scale, number>;

/**
 * The engine's values of a text on the scales' 0..1 range.
 * @param result - the engine's profile-free result of the text alone
 * @returns one value per scale
 */
export function engineScaleValues(result: Pick<ScoreResult, 'human_likeness' | 'measures'>): ScaleRatings {
  return {
    human: result.human_likeness / 100,
    warm: result.measures.empathy,
    direct: result.measures.directness,
    hesitant: result.measures.hesitation,
  };
}

const rating = { type: 'integer', minimum: SCALE_MIN, maximum: SCALE_MAX } as const;

/** The JSON schema of ratings on all four scales (every scale required). */
export const scaleRatingsSchema = {
  type: 'object',
  additionalProperties: false,
  required: [...SCALES],
  description: `One integer per scale, ${SCALE_MIN} to ${SCALE_MAX}.`,
  properties: Object.fromEntries(SCALES.map((s) => [s, { ...rating, description: SCALE_QUESTIONS[s] }])),
} as const;

/** The scales as the API presents them. */
export function presentScales(): Array<{ id: Scale; question: string; min: number; max: number }> {
  return SCALES.map((id) => ({ id, question: SCALE_QUESTIONS[id], min: SCALE_MIN, max: SCALE_MAX }));
}

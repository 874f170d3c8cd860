import { findProfile } from '../../shared/profiles';
import { scoreText, SCORER_VERSION, type DimensionId } from '../../shared/scoring';

/** What a reviewer rates, besides the overall human-likeness: the four text dimensions of the engine. */
export const REVIEW_DIMENSIONS = ['human_likeness', 'empathy', 'formality', 'directness', 'hesitation'] as const;

/** One rated dimension. */
export type ReviewDimension = (typeof REVIEW_DIMENSIONS)[number];

/** The rating scale: 1 (not at all) to 5 (very much). */
export const RATING_MIN = 1;
export const RATING_MAX = 5;

/** The question a reviewer answers for each dimension, on the 1..5 scale. */
export const DIMENSION_QUESTIONS: Record<ReviewDimension, string> = {
  human_likeness: 'How much does this reply read as written by a person? (1: clearly a machine, 5: clearly a person)',
  empathy: 'How warm and attuned to the other person’s feelings is it? (1: not at all, 5: very)',
  formality: 'How formal is it? (1: very casual, 5: very formal)',
  directness: 'How direct is it? (1: very indirect, 5: straight to the point)',
  hesitation: 'How hesitant or tentative is it? (1: fully certain, 5: very hesitant)',
};

/** A reply the service wrote itself for review: never text a caller submitted. */
interface SampleSource {
  id: string;
  profile: string;
  incoming: string;
  reply: string;
  delaySeconds: number;
}

// Written by the project for this purpose, a mix of human-like and machine-like replies so that
// ratings spread over the scale. Ids are stable: ratings refer to them.
const SOURCES: SampleSource[] = [
  {
    id: 'cr-01',
    profile: 'warm-casual-texter',
    incoming: "ugh I bombed the interview today, I'm so annoyed at myself",
    reply: "noooo 😩 I'm sorry, that's the worst feeling. pretty sure it went better than you think tho. pizza at mine later? you can rant all you want",
    delaySeconds: 25,
  },
  {
    id: 'cr-02',
    profile: 'warm-casual-texter',
    incoming: "ugh I bombed the interview today, I'm so annoyed at myself",
    reply:
      "I'm sorry to hear that your interview did not go as planned. It's important to remember that setbacks are a normal part of the job search process. Here are some steps you can take: 1. Reflect on what went well. 2. Identify areas for improvement. 3. Practice self-compassion.",
    delaySeconds: 2,
  },
  {
    id: 'cr-03',
    profile: 'terse-senior-engineer',
    incoming: 'The build is failing on main with a missing env var. Which one?',
    reply: 'REDIS_URL. It is missing from the CI environment; add it and rerun.',
    delaySeconds: 12,
  },
  {
    id: 'cr-04',
    profile: 'terse-senior-engineer',
    incoming: 'The build is failing on main with a missing env var. Which one?',
    reply:
      "Great question! It looks like the build might be failing because of a missing environment variable. Could you perhaps check whether DATABASE_URL is set? I hope this helps, and please let me know if you have any other questions!",
    delaySeconds: 1,
  },
  {
    id: 'cr-05',
    profile: 'grief-support-peer',
    incoming: 'My dad died last month and I still can’t focus on anything.',
    reply:
      "Oh, I'm so sorry. A month is nothing, honestly. When my mum died I couldn't read a page for ages, it just slid off me. Be gentle with yourself. What was he like?",
    delaySeconds: 60,
  },
  {
    id: 'cr-06',
    profile: 'grief-support-peer',
    incoming: 'My dad died last month and I still can’t focus on anything.',
    reply:
      'As an AI language model, I cannot fully understand your loss, but grief is a complex process. It is recommended that you consult a licensed professional. Additionally, maintaining a routine may help improve concentration.',
    delaySeconds: 1,
  },
  {
    id: 'cr-07',
    profile: 'formal-concierge',
    incoming: 'Could you book us a table for two tonight somewhere quiet near the hotel?',
    reply:
      'Good evening. Certainly: Le Jardin, two streets from the hotel, keeps a quiet corner table, and I can hold it for two at half past seven. Shall I confirm it, or would a later hour suit you better?',
    delaySeconds: 40,
  },
  {
    id: 'cr-08',
    profile: 'anxious-overthinker',
    incoming: 'Do you think I should take the job offer?',
    reply:
      "hmm... I don't know? it sounds good on paper, I think, but sorry, I keep going back and forth. could you ask them for a bit more time? or is that weird... I just don't want you to regret it",
    delaySeconds: 45,
  },
  {
    id: 'cr-09',
    profile: 'blunt-startup-founder',
    incoming: 'Should we spend another week polishing the onboarding before launch?',
    reply: 'No. Launch Tuesday. Onboarding gets fixed from real usage.',
    delaySeconds: 8,
  },
  {
    id: 'cr-10',
    profile: 'upbeat-support-agent',
    incoming: "My order arrived with a cracked mug, what can I do? I'm pretty disappointed.",
    reply:
      "I'm so sorry it arrived broken, what a letdown! A new mug is on its way today at no cost, and the tracking link will reach your inbox shortly. Please keep or recycle the cracked one.",
    delaySeconds: 30,
  },
  {
    id: 'cr-11',
    profile: 'gen-z-group-chatter',
    incoming: 'who is coming to the thing saturday',
    reply: 'me!! if sam drives lol',
    delaySeconds: 6,
  },
  {
    id: 'cr-12',
    profile: 'careful-academic',
    incoming: 'Does the new study show that the drug works?',
    reply:
      'I would be careful there. The results point to a small benefit, but with so few participants and a short follow-up it seems premature to say the drug works; a larger replication would settle it.',
    delaySeconds: 90,
  },
];

/** The engine's view of a sample, revealed to a reviewer once they rated it. */
export interface EngineView {
  scorer_version: string;
  /** 0..100, profile-free. */
  human_likeness: number;
  /** Against the sample's profile, 0..100. */
  eq_score: number;
  passed: boolean;
  /** Profile-free measures, 0..1. */
  measures: Record<DimensionId, number>;
}

/** A sample as the service holds it: the source plus the engine's scores. */
export interface ReviewSample {
  id: string;
  profile: { id: string; name: string };
  incoming: string;
  reply: string;
  response_delay_seconds: number;
  engine: EngineView;
}

let scored: ReadonlyMap<string, ReviewSample> | undefined;

/**
 * Every review sample, scored once per process. Twelve short fixed replies take a few
 * milliseconds on the event loop, once; the thread pool is for callers' texts.
 * @returns the samples by id, in catalog order
 */
export function reviewSamples(): ReadonlyMap<string, ReviewSample> {
  scored ??= new Map(
    SOURCES.map((s) => {
      const result = scoreText({ text: s.reply, incoming: s.incoming, delaySeconds: s.delaySeconds, profile: s.profile });
      const sample: ReviewSample = {
        id: s.id,
        profile: { id: s.profile, name: findProfile(s.profile)?.name ?? s.profile },
        incoming: s.incoming,
        reply: s.reply,
        response_delay_seconds: s.delaySeconds,
        engine: {
          scorer_version: result.scorer_version,
          human_likeness: result.human_likeness,
          eq_score: result.result!.eq_score,
          passed: result.result!.passed,
          measures: result.measures,
        },
      };
      return [s.id, sample] as const;
    }),
  );
  return scored;
}

/** The scorer version the samples are scored with. */
export const REVIEW_SCORER_VERSION = SCORER_VERSION;

/**
 * The engine's value of one dimension on the 0..1 scale ratings are compared on.
 * @param engine - the sample's engine view
 * @param dimension - the rated dimension
 * @returns 0..1
 */
export function engineValue(engine: EngineView, dimension: ReviewDimension): number {
  return dimension === 'human_likeness' ? engine.human_likeness / 100 : engine.measures[dimension];
}

/**
 * A rating on the 0..1 scale of the engine: 1 maps to 0, 5 to 1.
 * @param rating - 1..5
 * @returns 0..1
 */
export function ratingValue(rating: number): number {
  return (rating - RATING_MIN) / (RATING_MAX - RATING_MIN);
}

/** Ids of every sample, in catalog order. */
export const SAMPLE_IDS: readonly string[] = SOURCES.map((s) => s.id);

/**
 * The fixed, published list of feelings an asker may declare for its turn in a role-play room, and
 * the lexicon a helper's reply is read with (see read-feeling.ts). Each feeling has single words,
 * matched by their stem (so "worried", "worry" and "worrying" are one entry), and phrases, matched
 * word by word on stems. A cue belongs to one feeling only. Cues that would fire on stock phrases
 * ("calm down", "I hope this helps", "lost your keys") are left out or need their verb ("feeling
 * down", "feel lost"). Cues that carry their own negation ("not alone", "not your fault") read
 * the feeling they reassure about.
 */

/** A feeling an asker may declare. */
export interface Feeling {
  readonly id: string;
  readonly description: string;
  /** Words (and multi-word phrases) that name or clearly imply the feeling. */
  readonly cues: readonly string[];
}

/** The published feelings, in their fixed order (GET /api/roleplay/feelings). */
export const FEELINGS: readonly Feeling[] = Object.freeze([
  {
    id: 'anxious',
    description: 'Worried about what might happen; on edge.',
    cues: ['anxious', 'anxiety', 'worried', 'worry', 'nervous', 'uneasy', 'on edge', 'panicky', 'panic', 'scared', 'afraid', 'fearful', 'dread'],
  },
  {
    id: 'sad',
    description: 'Down, low or grieving.',
    cues: ['sad', 'sadness', 'unhappy', 'feeling down', 'feeling low', 'heartbroken', 'grief', 'grieving', 'miserable', 'depressed', 'gutted', 'hurting', 'heavy heart'],
  },
  {
    id: 'frustrated',
    description: 'Blocked and fed up after trying.',
    cues: ['frustrated', 'frustrating', 'frustration', 'fed up', 'annoyed', 'annoying', 'irritated', 'exasperated', 'feel stuck', 'at your wits end'],
  },
  {
    id: 'angry',
    description: 'Wronged and furious.',
    cues: ['angry', 'anger', 'furious', 'mad', 'livid', 'outraged', 'resentful', 'resentment', 'pissed off', 'rage'],
  },
  {
    id: 'lonely',
    description: 'Alone and unseen.',
    cues: ['lonely', 'loneliness', 'alone', 'not alone', 'isolated', 'isolation', 'left out', 'abandoned', 'no one to talk to', 'on your own'],
  },
  {
    id: 'overwhelmed',
    description: 'Too much at once; cannot keep up.',
    cues: ['overwhelmed', 'overwhelming', 'swamped', 'drowning', 'too much', 'stretched thin', 'burned out', 'burnt out', 'overloaded', 'exhausted'],
  },
  {
    id: 'embarrassed',
    description: 'Exposed and self-conscious.',
    cues: ['embarrassed', 'embarrassing', 'embarrassment', 'ashamed', 'shame', 'humiliated', 'mortified', 'awkward', 'self-conscious'],
  },
  {
    id: 'guilty',
    description: 'Responsible for a harm and sorry for it.',
    cues: ['guilty', 'guilt', 'regret', 'remorse', 'your fault', 'not your fault', 'blame yourself', 'blaming yourself'],
  },
  {
    id: 'confused',
    description: 'Lost; does not know what is going on or what to do.',
    cues: ['confused', 'confusing', 'confusion', 'feel lost', 'unsure', 'uncertain', 'puzzled', 'baffled', 'mixed up', 'torn'],
  },
  {
    id: 'hopeful',
    description: 'Cautiously looking forward to something better.',
    cues: ['hopeful', 'hopefulness', 'optimistic', 'looking forward', 'excited', 'encouraged', 'upbeat'],
  },
]);

/** The feeling ids, for schemas (an enum) and lookups. */
export const FEELING_IDS: readonly string[] = Object.freeze(FEELINGS.map((f) => f.id));

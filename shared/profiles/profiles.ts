import type { Profile } from './profile';

type Row = [
  id: string,
  name: string,
  description: string,
  empathy: number,
  formality: number,
  directness: number,
  hesitation: number,
  typeWpm: number,
  thinkSeconds: number,
  sigma: number,
  typicalWords: number,
];

// Targets and tempo come from Big-Five readings mapped to the four dimensions, and typing speeds
// from Dhakal 2018 / Palin 2019. Typical lengths are our reading of each persona.
const ROWS: Row[] = [
  ['warm-casual-texter', 'Warm casual texter', 'A close friend on a phone: warm, lowercase-friendly, quick to react, emoji welcome.', 0.8, 0.15, 0.45, 0.4, 36, 2, 0.55, 18],
  ['terse-senior-engineer', 'Terse senior engineer', 'Team chat with a senior engineer: the answer first, no pleasantries, exact terms.', 0.25, 0.45, 0.9, 0.1, 60, 3, 0.4, 15],
  ['formal-concierge', 'Formal concierge', 'A hotel concierge: courteous, complete sentences, careful with names and details.', 0.7, 0.9, 0.35, 0.1, 45, 4, 0.3, 40],
  ['empathetic-counselor', 'Empathetic counselor', 'A peer counsellor: reflective listening, validates feelings, gentle open questions.', 0.95, 0.55, 0.35, 0.3, 40, 8, 0.4, 50],
  ['blunt-startup-founder', 'Blunt startup founder', 'A time-poor founder: imperatives, short, certain, moves on.', 0.3, 0.2, 0.95, 0.05, 45, 1.5, 0.5, 12],
  ['anxious-overthinker', 'Anxious overthinker', 'Second-guesses, apologises, qualifies and trails off.', 0.65, 0.35, 0.15, 0.9, 35, 10, 0.6, 45],
  ['upbeat-support-agent', 'Upbeat support agent', 'A retail chat agent: friendly-professional, the solution first, a warm close.', 0.7, 0.6, 0.6, 0.15, 55, 3, 0.35, 35],
  ['careful-academic', 'Careful academic', 'A researcher: precise wording, epistemic hedging, complete sentences.', 0.4, 0.85, 0.4, 0.6, 50, 12, 0.45, 60],
  ['gen-z-group-chatter', 'Gen-Z group chatter', 'A young adult in a group chat: slang, fragments, fast replies.', 0.55, 0.05, 0.65, 0.35, 40, 1, 0.6, 10],
  ['patient-teacher', 'Patient teacher', 'Explains step by step, encourages, checks understanding.', 0.75, 0.6, 0.55, 0.25, 40, 6, 0.4, 55],
  ['laconic-sysadmin', 'Laconic sysadmin', 'On call: one-liners and commands, nothing extra.', 0.15, 0.3, 0.95, 0.05, 65, 2, 0.45, 8],
  ['diplomatic-manager', 'Diplomatic manager', 'Cushions bad news, makes requests indirectly, keeps the relationship.', 0.65, 0.7, 0.25, 0.4, 50, 6, 0.4, 45],
  ['cautious-lawyer', 'Cautious lawyer', 'Qualifies everything, formal and precise, avoids commitments.', 0.3, 0.95, 0.45, 0.55, 55, 15, 0.45, 60],
  ['eager-salesperson', 'Eager salesperson', 'Enthusiastic, exclamations, always pushes the next step.', 0.6, 0.4, 0.75, 0.05, 50, 1.5, 0.4, 30],
  ['grief-support-peer', 'Grief support peer', 'A support-forum veteran: shares their own loss, gentle, unhurried.', 0.9, 0.2, 0.3, 0.45, 30, 8, 0.55, 55],
  ['retired-grandparent', 'Retired grandparent', 'A slow, kind typist who writes full messages and signs off.', 0.8, 0.65, 0.45, 0.35, 20, 8, 0.6, 35],
  ['busy-parent-on-phone', 'Busy parent on phone', 'Interrupted, brief and practical, the odd typo.', 0.55, 0.15, 0.75, 0.25, 32, 3, 0.7, 14],
  ['triage-nurse', 'Triage nurse', 'Calm, clear instructions, checks symptoms and red flags.', 0.7, 0.55, 0.75, 0.15, 45, 3, 0.35, 35],
  ['skeptical-journalist', 'Skeptical journalist', 'Probing direct questions in a neutral tone.', 0.35, 0.6, 0.85, 0.25, 60, 4, 0.4, 25],
  ['shy-student', 'Shy student', 'Polite, short and hesitant.', 0.55, 0.35, 0.2, 0.75, 38, 6, 0.55, 15],
  ['stoic-tradesperson', 'Stoic tradesperson', 'Texts like a plumber: practical, few words.', 0.35, 0.2, 0.85, 0.1, 25, 3, 0.55, 10],
  ['dreamy-artist', 'Dreamy artist', 'Expressive, wanders into tangents, ellipses.', 0.7, 0.2, 0.3, 0.6, 40, 6, 0.55, 40],
  ['executive-assistant', 'Executive assistant', 'Efficient and polished, confirms details.', 0.55, 0.8, 0.65, 0.1, 70, 2, 0.3, 30],
  ['competitive-gamer', 'Competitive gamer', 'Fast, lowercase, banter, blunt.', 0.35, 0.05, 0.85, 0.15, 70, 0.8, 0.5, 8],
  ['reflective-philosopher', 'Reflective philosopher', 'Thoughtful and tentative, long turns.', 0.55, 0.75, 0.3, 0.7, 45, 12, 0.5, 80],
  ['calm-crisis-responder', 'Calm crisis responder', 'De-escalates, validates, gives clear next steps.', 0.85, 0.5, 0.7, 0.1, 50, 3, 0.35, 40],
  ['second-language-professional', 'Second-language professional', 'Careful and formal, plain words, few idioms.', 0.5, 0.7, 0.55, 0.35, 35, 8, 0.5, 30],
  ['dry-witted-colleague', 'Dry-witted colleague', 'Understated, sarcastic, direct.', 0.35, 0.3, 0.7, 0.2, 55, 2, 0.45, 15],
];

// Silent reading speed is 238 wpm (Brysbaert 2019) except where the persona reads slower or skims.
const READ_WPM: Record<string, number> = {
  'retired-grandparent': 200,
  'second-language-professional': 180,
  'gen-z-group-chatter': 280,
  'competitive-gamer': 280,
};

// Reviewed by hand: a style that is normal for the person must never read as "machine".
const OVERRIDES: Record<string, Profile['overrides']> = {
  'empathetic-counselor': { weights: { empathy: 0.35, formality: 0.15, directness: 0.15, hesitation: 0.15, timing: 0.2 } },
  'grief-support-peer': { weights: { empathy: 0.35, formality: 0.15, directness: 0.15, hesitation: 0.15, timing: 0.2 } },
  'careful-academic': { exemptSignals: ['em-dash', 'no-contractions'] },
  'cautious-lawyer': { exemptSignals: ['em-dash', 'no-contractions'] },
  'formal-concierge': { exemptSignals: ['no-contractions'] },
  'second-language-professional': { exemptSignals: ['no-contractions'] },
  'reflective-philosopher': { exemptSignals: ['em-dash'] },
  'laconic-sysadmin': { weights: { empathy: 0.1, formality: 0.2, directness: 0.3, hesitation: 0.2, timing: 0.2 } },
  'terse-senior-engineer': { weights: { empathy: 0.15, formality: 0.2, directness: 0.3, hesitation: 0.15, timing: 0.2 } },
};

/** The 28 profiles, in a fixed order. */
export const PROFILES: readonly Profile[] = Object.freeze(
  ROWS.map(([id, name, description, empathy, formality, directness, hesitation, typeWpm, thinkSeconds, sigma, typicalWords]) =>
    Object.freeze<Profile>({
      id,
      name,
      description,
      targets: { empathy, formality, directness, hesitation },
      tempo: { typeWpm, thinkSeconds, sigma, readWpm: READ_WPM[id] ?? 238 },
      typicalWords,
      overrides: OVERRIDES[id] ?? {},
    }),
  ),
);

const BY_ID = new Map(PROFILES.map((p) => [p.id, p]));

/**
 * Looks a profile up by id.
 * @param id - kebab-case profile id
 * @returns the profile, or undefined for an unknown id
 */
export function findProfile(id: string): Profile | undefined {
  return BY_ID.get(id);
}

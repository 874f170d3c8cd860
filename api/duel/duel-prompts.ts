/** A fixed duel prompt: the situation both bots answer, and the profiles it is fair to judge against. */
export interface DuelPrompt {
  readonly id: number;
  /** The message (or situation) the bots reply to; it is scored as the incoming message. */
  readonly situation: string;
  /** Profile ids this prompt suits; a duel names one of them. */
  readonly profiles: readonly string[];
}

/**
 * The prompts a duel's `prompt_id` is chosen from (GET /api/duel/prompts). Ids are stable: an
 * open duel refers to its prompt by id, so a prompt is never renumbered or reworded, only added.
 */
export const DUEL_PROMPTS: readonly DuelPrompt[] = Object.freeze([
  {
    id: 1,
    situation: 'My dog died this morning. I keep walking to the door to let him out.',
    profiles: ['grief-support-peer', 'empathetic-counselor', 'warm-casual-texter', 'retired-grandparent'],
  },
  {
    id: 2,
    situation: 'The deploy failed again and prod is returning 502s. What do I check first?',
    profiles: ['terse-senior-engineer', 'laconic-sysadmin', 'blunt-startup-founder'],
  },
  {
    id: 3,
    situation: 'Our flight was cancelled and we land in your city at midnight with two kids. Can you help with a room?',
    profiles: ['formal-concierge', 'upbeat-support-agent', 'triage-nurse'],
  },
  {
    id: 4,
    situation: 'I think I bombed the interview. Should I email them again or is that desperate?',
    profiles: ['warm-casual-texter', 'patient-teacher', 'anxious-overthinker', 'gen-z-group-chatter'],
  },
  {
    id: 5,
    situation: 'We need to tell the team the project is cancelled. How do I put it?',
    profiles: ['diplomatic-manager', 'cautious-lawyer', 'blunt-startup-founder'],
  },
  {
    id: 6,
    situation: 'My toddler has had a fever since last night and now she is very sleepy. Is that normal?',
    profiles: ['triage-nurse', 'busy-parent-on-phone', 'patient-teacher'],
  },
].map((p) => Object.freeze({ ...p, profiles: Object.freeze([...p.profiles]) })));

/**
 * Looks a duel prompt up by id.
 * @param id - a `prompt_id`
 * @returns the prompt, or undefined
 */
export function findDuelPrompt(id: number): DuelPrompt | undefined {
  return DUEL_PROMPTS.find((p) => p.id === id);
}

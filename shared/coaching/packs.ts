/**
 * The coaching packs: fixed data, versioned with the code. A pack is a named set of
 * drills; a drill is a situation (the message the agent answers, sent to the engine as `incoming`),
 * a target profile (one of the 28) and its bar, the minimum EQ score that clears it. A pack also has
 * an average bar: the mean of the drills' best scores must reach it, and it sits above the mean of
 * the drill bars, so scraping past every bar is not enough for the certificate.
 */

/** One drill of a pack. */
export interface Drill {
  /** `<pack_id>/<n>`, unique across packs. */
  readonly id: string;
  readonly title: string;
  /** The message the agent's reply answers. */
  readonly situation: string;
  /** Profile id the reply is scored against. */
  readonly target_profile: string;
  /** Minimum EQ score (0..100) that clears the drill. */
  readonly bar: number;
}

/** A coaching pack. */
export interface Pack {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly drills: readonly Drill[];
  /** Minimum mean of the drills' best EQ scores. */
  readonly average_bar: number;
}

function pack(id: string, name: string, description: string, averageBar: number, drills: Array<Omit<Drill, 'id'>>): Pack {
  return Object.freeze({
    id,
    name,
    description,
    average_bar: averageBar,
    drills: Object.freeze(drills.map((d, i) => Object.freeze({ id: `${id}/${i + 1}`, ...d }))),
  });
}

/** Every pack, in catalog order. */
export const PACKS: readonly Pack[] = Object.freeze([
  pack('straight-talk', 'Straight talk', 'Short, certain answers for people who want the answer first and nothing extra.', 85, [
    { title: 'The failing build', situation: 'The build is failing on main with a missing env var. Which one?', target_profile: 'terse-senior-engineer', bar: 75 },
    { title: 'Ship or polish', situation: 'Should we spend another week polishing the onboarding before launch?', target_profile: 'blunt-startup-founder', bar: 75 },
    { title: 'Disk full at night', situation: 'disk full on web-3 again, what do I do?', target_profile: 'laconic-sysadmin', bar: 70 },
    { title: 'The bold claim', situation: 'Our product cut customer churn by 40 percent last quarter.', target_profile: 'skeptical-journalist', bar: 75 },
  ]),
  pack('warm-replies', 'Warm replies', 'Replies that meet a person where they are: friendly, attentive, never canned.', 82, [
    { title: 'The bad interview', situation: "ugh I bombed the interview today, I'm so annoyed at myself", target_profile: 'warm-casual-texter', bar: 75 },
    { title: 'The cracked mug', situation: "My order arrived with a cracked mug, what can I do? I'm pretty disappointed.", target_profile: 'upbeat-support-agent', bar: 75 },
    { title: 'New city, no friends', situation: "I've been feeling really lonely since I moved to the new city, and I don't know how to meet people.", target_profile: 'empathetic-counselor', bar: 72 },
    { title: 'The endless loop', situation: "I don't get why my loop never stops, it just runs forever. Any idea why?", target_profile: 'patient-teacher', bar: 70 },
  ]),
  pack('hard-moments', 'Hard moments', 'Grief, fear and urgency: steady, human replies when it matters most.', 80, [
    { title: 'Three weeks after', situation: "My dad died three weeks ago and I can't stop crying at random times, is that normal?", target_profile: 'grief-support-peer', bar: 72 },
    { title: 'Smoke in the kitchen', situation: "There's smoke coming from the kitchen and I'm panicking, what do I do?!", target_profile: 'calm-crisis-responder', bar: 70 },
    { title: 'The fever', situation: 'My son has had a fever of 39 since yesterday and he is really tired. What should I do?', target_profile: 'triage-nurse', bar: 70 },
  ]),
]);

/**
 * A pack by id.
 * @param id - pack id
 * @returns the pack, or undefined
 */
export function findPack(id: string): Pack | undefined {
  return PACKS.find((p) => p.id === id);
}

/**
 * A drill of a pack by id.
 * @param pack - the pack
 * @param drillId - drill id
 * @returns the drill, or undefined (also for a drill of another pack)
 */
export function findDrill(pack: Pack, drillId: string): Drill | undefined {
  return pack.drills.find((d) => d.id === drillId);
}

/**
 * The mean of a pack's drill bars (shown next to its average bar).
 * @param pack - the pack
 * @returns the mean, one decimal
 */
export function meanDrillBar(pack: Pack): number {
  return Math.round((pack.drills.reduce((s, d) => s + d.bar, 0) / pack.drills.length) * 10) / 10;
}

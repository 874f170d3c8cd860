import type { LexiconEntry } from '../lexicon';

/**
 * The emotional-reaction, shared-experience and exploration phrases of the empathy dimension, written
 * from the published descriptions of empathic communication, never learned from any corpus:
 * - Sharma et al. (2020), "A computational approach to understanding empathy expressed in text-based
 *   mental health support": the definitions of emotional reactions (warmth, compassion, concern felt
 *   after reading the post; weak when it only alludes to a feeling, "everything will be fine", strong
 *   when it names one, "I feel really sad for you"), interpretations (including understanding shown
 *   through a similar experience of one's own) and explorations (asking about feelings and experiences
 *   the person has not stated).
 * - Miller & Rollnick, Motivational Interviewing (OARS): open questions, affirmations of the person's
 *   strengths and efforts, and simple and complex reflections (the reflections live in empathy.ts and
 *   the `ip-reflect` list).
 * - Linehan's levels of validation: being present and attentive (level 1), and normalising the
 *   reaction (level 5) as reassurance that it is not the person's fault and that it will pass.
 * Each list is built as a construction: a small set of frames crossed with the words that may fill
 * them, so a phrase is there because its pattern is, not because some data set used it.
 */

/** Every combination of the parts, joined by spaces ("i hope" x "you" -> "i hope you"). */
function frames(...parts: readonly (readonly string[])[]): string[] {
  return parts.reduce<string[]>((acc, words) => acc.flatMap((a) => words.map((w) => (a ? `${a} ${w}` : w))), ['']);
}

/** The same list with one category and weight. */
function entries(phrases: readonly string[], category: string, weight: number): LexiconEntry[] {
  return [...new Set(phrases)].map((phrase): LexiconEntry => ({ phrase, category, weight }));
}

// How people write "I am" and "you are" in chat and forum text, apostrophes often dropped.
const I_AM = ["i'm", 'im', 'i am'];
const YOU_ARE = ["you're", 'youre', 'you are'];
const IT_IS = ["it's", 'its', 'it is'];
const NEGATED_DO = ["don't", 'dont', 'do not'];

/**
 * Strong emotional reaction (Sharma et al.): the writer names a feeling of their own about what
 * happened to the person: sympathy ("sorry" that is not an apology; empathy.ts tells them apart),
 * compassion, concern and comforting gestures. Evaluations such as "that's so hard" and "I'm sad for
 * you" are constructions in empathy.ts and need no phrase here.
 */
export const REACTION_PHRASES: readonly LexiconEntry[] = entries(
  [
    'sorry',
    ...frames([...I_AM, 'so', 'really', 'truly', 'very'], ['sorry']),
    ...frames(['sorry'], ['to hear', 'you', 'that', 'for your loss', 'about your']),
    ...frames(['i feel', 'feel so', 'i feel so', 'i feel really'], ['for you', 'bad for you', 'sad for you']),
    ...frames(['my heart'], ['goes out', 'breaks', 'aches', 'hurts']),
    'breaks my heart',
    ...frames([...I_AM, 'i was'], ['worried about you', 'concerned about you', 'thinking of you', 'thinking about you']),
    ...frames(['sending'], ['hugs', 'love', 'you', 'strength', 'good thoughts', 'positive thoughts']),
    'hugs', 'hug', 'big hug', '<3', '< 3',
    'oh no', 'aw', 'aww', 'poor thing', 'you poor thing', 'that sucks', 'what a shame',
  ],
  'er',
  2,
);

/**
 * Weak emotional reaction and affirmation: warmth that alludes to a feeling without naming it
 * (Sharma et al.'s "everything will be fine"), hope and good wishes, reassurance that it is not the
 * person's fault and will pass (Linehan's normalising), presence and an offer to listen (Linehan's
 * level 1), and affirmations of the person's strength and effort (MI). "You are strong" and "you're
 * doing great" are constructions in empathy.ts.
 */
export const SUPPORT_PHRASES: readonly LexiconEntry[] = entries(
  [
    // Hope and good wishes for the person.
    ...frames(['i hope', 'hope', 'i really hope'], ['you', 'things', 'it', 'that', 'everything']),
    'hopefully', 'i wish you', 'wish you', 'wishing you', 'good luck', 'best of luck', 'all the best', 'best wishes', 'take care', 'take care of yourself',
    'feel better', 'feel better soon', 'get well soon', 'stay safe', 'my condolences', 'condolences',
    // Reassurance: it will pass, it is not their fault.
    ...frames(['it', 'things', 'everything', 'you'], ['will', 'are going to', 'is going to'], ['be okay', 'be ok', 'be fine', 'be alright', 'get better']),
    ...frames(["it'll", "you'll", "things'll"], ['be okay', 'be ok', 'be fine', 'be alright', 'get better']),
    'it gets better', 'things get better', 'it will pass', 'this will pass', 'this too shall pass',
    ...frames(["you'll", 'you will', 'you can', 'we can'], ['get through this', 'get through it', 'make it through']),
    ...frames([...IT_IS, "that's", 'that is'], ['okay', 'ok', 'alright', 'not your fault']),
    'not your fault',
    ...frames(NEGATED_DO, ['worry', 'blame yourself', 'be too hard on yourself', 'give up']),
    'never give up',
    // Affirmation of the person and their effort (MI).
    'you can do this', 'you can do it', 'you got this', "you've got this", 'hang in there', 'stay strong', 'keep going', 'keep it up',
    ...frames(['proud of you', 'you deserve', 'you matter', 'you are loved', "you're loved", 'you are worth', "you're worth"]),
    'well done', 'good for you', 'great job', 'be kind to yourself', 'be gentle with yourself', 'go easy on yourself', 'one day at a time',
    // Shared joy at good news is warmth too.
    ...frames([...I_AM, 'so'], ['glad', 'happy for you', 'glad to hear', 'happy to hear']),
    'happy for you', 'glad to hear', 'congratulations', 'congrats', 'great news', 'good news', 'wonderful news',
    // Presence and an offer to listen (validation level 1).
    ...frames(I_AM, ['here for you', 'here if', 'always here', 'listening', 'with you', 'right here']),
    'here for you', 'here to listen', 'here to talk', 'happy to listen',
    ...frames([...YOU_ARE, "you aren't", 'you arent'], ['not alone']),
    'not alone',
    ...frames(['if you ever', 'if you'], ['need', 'want'], ['to talk', 'someone to talk to', 'to vent', 'anything']),
    ...frames(['feel free to', "don't hesitate to", 'you can always'], ['reach out', 'message me', 'talk to me', 'vent', 'pm me', 'dm me']),
    'pm me', 'dm me', 'message me', 'reach out to me', 'talk to me',
  ],
  'er',
  1,
);

/**
 * Interpretation through a similar experience (Sharma et al.): the writer shows they understand by
 * saying they lived through the same. A sentence that talks about the writer at length is caught by
 * the disclosure rule of empathy.ts; these frames catch the short claims of similarity.
 */
export const SHARED_EXPERIENCE_PHRASES: readonly LexiconEntry[] = entries(
  [
    ...frames(["i've", 'ive', 'i have'], ['been there', 'been through', 'felt that', 'felt the same', 'had the same', 'gone through']),
    'been there', 'same boat', 'in the same boat',
    ...frames(['i'], ['went through', 'felt the same', 'felt that way', 'had the same', 'have the same', 'struggled with', 'struggle with', 'dealt with', 'deal with', 'suffered from', 'suffer from', 'live with', 'lived with', 'used to', 'also', 'too']),
    ...frames(['the same thing', 'something similar', 'that', 'this'], ['happened to me']),
    'happened to me', 'feel the same', 'felt the same', 'the same way', 'something similar', 'similar experience', 'my experience', 'in my experience', 'when i was', 'what helped me', 'helped me',
  ],
  'ip-share',
  1,
);

/**
 * Open questions (MI) that explore the person's feelings and experience (Sharma et al.'s
 * explorations). empathy.ts counts one only inside a question that does not give advice; a question
 * with "you" in it explores even without an opener, so these frames mostly add the questions about
 * the situation itself ("how did it go?", "what was that like?").
 */
export const EXPLORATION_OPENERS: readonly LexiconEntry[] = entries(
  [
    ...frames(['are', 'were', 'have', 'had', 'do', 'did', 'would', 'could', 'can', 'will'], ['you', 'u']),
    'r u', 'you ok', 'you okay',
    ...frames(['how', 'what', 'why', 'when', 'where', 'who'], ['do', 'did', 'are', 'were', 'have', 'would'], ['you', 'they']),
    ...frames(['what', 'how'], ['was', 'is'], ['that', 'it'], ['like']),
    "what's that like", "what's it like",
    ...frames(['how'], ['did', 'does', 'was', 'is'], ['it', 'that']),
    "how's it going", 'how is it going', 'how long', 'what happened', "what's going on", 'whats going on', 'what made', 'what makes',
    ...frames(['does', 'did', 'has', 'is', 'was'], ['your', 'anyone', 'it help', 'that help']),
    ...frames(['is there'], ['anything', 'anyone', 'someone', 'something']),
  ],
  'ex-ask',
  1,
);

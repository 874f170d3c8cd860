import type { LexiconEntry } from '../lexicon';

/**
 * Curated hedge and repair phrases for the hesitation dimension.
 *
 * Categories follow Hyland's (1998) hedge taxonomy, with the Islam, Xiao & Mercer (2020) informal-text list
 * used only as a checklist of what to consider. Entries are deliberately narrower than either source:
 * ability/deontic modals (can, should, shall), frequency adverbs (usually, often) and vague degree words
 * (rather, fairly) read as content or style, not as doubt, in chat replies, so they are left out.
 *
 * Categories drive the context checks in hesitation.ts:
 * - `hedge`: counts wherever it appears.
 * - `hedge-may`: "may", skipped when it is the month or asks leave ("May I ask...").
 * - `hedge-could`: "could", full weight before "be"/"have" (epistemic), half otherwise (often ability), and
 *   nothing in a request or offer ("could you", "could I", or opening the sentence).
 * - `hedge-would`: "would" at half weight, and nothing in a request or offer ("would you like",
 *   "I would be glad to", or opening the sentence): politeness, not doubt.
 * - `hedge-verb`: an epistemic verb; counts only with a first-person subject and without a
 *   non-epistemic particle after it ("I think it's X" counts, "think about X" does not).
 * - `hedge-passive`: reported belief ("is thought to", "is believed"); counts as written.
 * - `hedge-approx`: "about"/"around"/"like"; counts only right before a number.
 * - `hedge-possible`: "possible", skipped in "as soon as possible", "made possible", "possible to" (ability, not doubt).
 * - `hedge-kind`: "kind of"/"sort of"; skipped after a determiner ("what kind of", "a sort of").
 * - `repair`: a self-repair phrase. `repair-wait` / `repair-actually` need a clause edge (see hesitation.ts).
 * - `soften`: a softening phrase (SOFTENING_PHRASES): mitigation of a request or a disagreement, which
 *   people rate as hedging in the same breath as doubt.
 * - `filler-discourse`: a discourse filler ("you know", a leading "well,"), scored apart from pause fillers
 *   because Laserna et al. (2014) found the two load on different factors.
 */
/** Softening phrases, by politeness strategy (see the `soften` category below). */
export const SOFTENING_PHRASES: readonly string[] = [
  // Conventional indirectness: a request put as a question about ability, willingness or possibility
  // (an offer, "would you like", is not one).
  'could you', 'could you please', 'would you mind', 'would you be able', 'would you be willing', 'would it be possible', 'could we', 'might we', 'perhaps we could',
  'i was wondering', 'i wonder if', 'if possible', 'if you could', 'when you have a moment', 'when you get a chance', 'at your convenience',
  // Minimising the imposition.
  'a bit', 'a little', 'slightly', 'somewhat',
  // Gratitude for the other's effort.
  'thank you', 'thanks', 'appreciate', 'appreciated', 'appreciation', 'grateful', 'thankful',
  // Acknowledging the other's view before one's own.
  'i understand', 'i recognize', 'i recognise', 'i acknowledge', 'i value', 'i see your point', 'i respect', 'respectfully',
  // Joint framing: the task as shared, not imposed.
  'together', 'collaborate', 'collaborative', 'collaboration', "let's", 'let us', 'jointly',
  // Regret for the imposition or the bad news (sympathy, "I'm sorry you...", is empathy, not this).
  "i'm afraid", 'unfortunately', 'apologize', 'apologise', 'apologies', 'sorry to bother', 'sorry for the',
  // Leaving the other room.
  'i hope', 'hopefully', 'if that works', 'no rush', 'feel free', 'kindly',
];

export const HESITATION_PHRASES: readonly LexiconEntry[] = [
  // Modal auxiliaries. "would" is mostly conditional politeness in chat, so it counts half.
  { phrase: 'may', category: 'hedge-may' },
  { phrase: 'might', category: 'hedge' },
  { phrase: 'could', category: 'hedge-could' },
  { phrase: 'would', category: 'hedge-would', weight: 0.5 },
  { phrase: 'may or may not', category: 'hedge' },
  { phrase: 'might be', category: 'hedge' },

  // Adverbs of likelihood and evidential distance.
  { phrase: 'maybe', category: 'hedge' },
  { phrase: 'mayb', category: 'hedge' },
  { phrase: 'perhaps', category: 'hedge' },
  { phrase: 'probably', category: 'hedge' },
  { phrase: 'prob', category: 'hedge', weight: 0.5 },
  { phrase: 'probs', category: 'hedge' },
  { phrase: 'possibly', category: 'hedge' },
  { phrase: 'presumably', category: 'hedge' },
  { phrase: 'apparently', category: 'hedge' },
  { phrase: 'seemingly', category: 'hedge' },
  { phrase: 'arguably', category: 'hedge' },
  { phrase: 'supposedly', category: 'hedge' },
  { phrase: 'allegedly', category: 'hedge' },
  { phrase: 'reportedly', category: 'hedge' },
  { phrase: 'reputedly', category: 'hedge' },
  { phrase: 'purportedly', category: 'hedge' },
  { phrase: 'conceivably', category: 'hedge' },
  { phrase: 'potentially', category: 'hedge' },
  { phrase: 'theoretically', category: 'hedge' },
  { phrase: 'in theory', category: 'hedge' },
  { phrase: 'most likely', category: 'hedge' },
  { phrase: 'more likely', category: 'hedge' },
  { phrase: 'likely', category: 'hedge' },
  { phrase: 'unlikely', category: 'hedge' },
  { phrase: 'not necessarily', category: 'hedge' },
  { phrase: 'if i remember correctly', category: 'hedge' },
  { phrase: 'iirc', category: 'hedge' },
  { phrase: 'afaik', category: 'hedge' },
  { phrase: 'afaict', category: 'hedge' },
  { phrase: 'as far as i know', category: 'hedge' },
  { phrase: 'as far as i can tell', category: 'hedge' },
  { phrase: 'from what i can tell', category: 'hedge' },
  { phrase: 'if i had to guess', category: 'hedge' },
  { phrase: 'imo', category: 'hedge', weight: 0.5 },
  { phrase: 'imho', category: 'hedge', weight: 0.5 },
  { phrase: 'in my opinion', category: 'hedge', weight: 0.5 },

  // Adjectives and nouns of possibility and doubt.
  { phrase: 'possible', category: 'hedge-possible' },
  { phrase: 'possibility', category: 'hedge' },
  { phrase: 'possibilities', category: 'hedge' },
  { phrase: 'probable', category: 'hedge' },
  { phrase: 'unclear', category: 'hedge' },
  { phrase: 'uncertain', category: 'hedge' },
  { phrase: 'uncertainty', category: 'hedge' },
  { phrase: 'unsure', category: 'hedge' },
  { phrase: 'doubtful', category: 'hedge' },
  { phrase: 'debatable', category: 'hedge' },
  { phrase: 'not sure', category: 'hedge' },
  { phrase: 'not certain', category: 'hedge' },
  { phrase: 'not clear', category: 'hedge' },
  { phrase: 'not convinced', category: 'hedge' },
  { phrase: 'no idea', category: 'hedge' },
  { phrase: "don't know", category: 'hedge' },
  { phrase: 'dont know', category: 'hedge' },
  { phrase: 'do not know', category: 'hedge' },
  { phrase: 'idk', category: 'hedge' },
  { phrase: 'dunno', category: 'hedge' },
  { phrase: 'no clue', category: 'hedge' },
  { phrase: 'a chance', category: 'hedge' },
  { phrase: 'chances are', category: 'hedge' },
  { phrase: 'my guess', category: 'hedge' },
  { phrase: 'a hunch', category: 'hedge' },
  { phrase: 'i have a feeling', category: 'hedge' },
  { phrase: 'speculation', category: 'hedge' },
  { phrase: 'speculated', category: 'hedge' },
  { phrase: 'rumored', category: 'hedge' },
  { phrase: 'rumoured', category: 'hedge' },
  { phrase: 'alleged', category: 'hedge' },

  // Evidential verbs that hedge whatever their subject is.
  { phrase: 'seem', category: 'hedge' },
  { phrase: 'seems', category: 'hedge' },
  { phrase: 'seemed', category: 'hedge' },
  { phrase: 'appears to', category: 'hedge' },
  { phrase: 'appear to', category: 'hedge' },
  { phrase: 'appeared to', category: 'hedge' },
  { phrase: 'it appears', category: 'hedge' },
  { phrase: 'suggests', category: 'hedge' },
  { phrase: 'suggested that', category: 'hedge' },
  { phrase: 'suggesting that', category: 'hedge' },
  { phrase: 'indicates that', category: 'hedge' },
  { phrase: 'looks like', category: 'hedge', weight: 0.5 },
  { phrase: 'feels like', category: 'hedge', weight: 0.5 },
  { phrase: 'i wonder', category: 'hedge' },
  { phrase: "i'm wondering", category: 'hedge' },
  { phrase: 'wondering if', category: 'hedge' },
  { phrase: 'wondering whether', category: 'hedge' },
  { phrase: 'not sure whether', category: 'hedge' },
  { phrase: 'unsure whether', category: 'hedge' },

  // Epistemic verbs that need a first-person subject (checked in hesitation.ts).
  { phrase: 'think', category: 'hedge-verb' },
  { phrase: 'thinking', category: 'hedge-verb' },
  { phrase: 'thought', category: 'hedge-verb' },
  { phrase: 'believe', category: 'hedge-verb' },
  { phrase: 'guess', category: 'hedge-verb' },
  { phrase: 'guessing', category: 'hedge-verb' },
  { phrase: 'suppose', category: 'hedge-verb' },
  { phrase: 'reckon', category: 'hedge-verb' },
  { phrase: 'assume', category: 'hedge-verb' },
  { phrase: 'assuming', category: 'hedge-verb' },
  { phrase: 'suspect', category: 'hedge-verb' },
  { phrase: 'doubt', category: 'hedge-verb' },
  { phrase: 'presume', category: 'hedge-verb' },
  { phrase: 'feel like', category: 'hedge-verb', weight: 0.5 },
  { phrase: 'feel that', category: 'hedge-verb' },

  // Reported belief: the writer passes the claim on without owning it.
  ...['is', 'are', 'was', 'were', 'be', 'been', 'being', "'s", "'re", 'widely', 'generally', 'often', 'commonly'].flatMap(
    (aux): LexiconEntry[] =>
      ['thought', 'believed', 'considered', 'regarded', 'rumored', 'rumoured', 'presumed', 'assumed', 'suspected', 'alleged', 'speculated', 'supposed to have'].map(
        (verb) => ({ phrase: `${aux} ${verb}`, category: 'hedge-passive' }),
      ),
  ),

  // Belief reported about someone else ("some believe that", "seen as"): weaker, the writer only passes it on.
  { phrase: 'believe that', category: 'hedge', weight: 0.5 },
  { phrase: 'believes that', category: 'hedge', weight: 0.5 },
  { phrase: 'believed that', category: 'hedge', weight: 0.5 },
  { phrase: 'believed to', category: 'hedge', weight: 0.5 },
  { phrase: 'thought to', category: 'hedge', weight: 0.5 },
  { phrase: 'seen as', category: 'hedge', weight: 0.5 },
  { phrase: 'regarded as', category: 'hedge', weight: 0.5 },
  { phrase: 'considered to be', category: 'hedge', weight: 0.5 },
  { phrase: 'considered as', category: 'hedge', weight: 0.5 },
  { phrase: 'considered one of', category: 'hedge', weight: 0.5 },

  // Approximators.
  { phrase: 'about', category: 'hedge-approx' },
  { phrase: 'around', category: 'hedge-approx' },
  { phrase: 'like', category: 'hedge-approx' },
  { phrase: 'roughly', category: 'hedge' },
  { phrase: 'approximately', category: 'hedge' },
  { phrase: 'approx', category: 'hedge' },
  { phrase: 'more or less', category: 'hedge' },
  { phrase: 'somewhat', category: 'hedge' },
  { phrase: 'somewhere around', category: 'hedge' },
  { phrase: 'or so', category: 'hedge', weight: 0.5 },
  { phrase: 'kind of', category: 'hedge-kind' },
  { phrase: 'sort of', category: 'hedge-kind' },
  { phrase: 'kinda', category: 'hedge' },
  { phrase: 'sorta', category: 'hedge' },
  { phrase: 'ish', category: 'hedge' },

  // Self-repair.
  { phrase: 'i mean', category: 'repair' },
  { phrase: 'i meant', category: 'repair' },
  { phrase: 'or rather', category: 'repair' },
  { phrase: 'scratch that', category: 'repair' },
  { phrase: 'let me rephrase', category: 'repair' },
  { phrase: 'let me rephrase that', category: 'repair' },
  { phrase: 'what i mean is', category: 'repair' },
  { phrase: 'or should i say', category: 'repair' },
  { phrase: 'no wait', category: 'repair' },
  { phrase: 'wait no', category: 'repair' },
  { phrase: 'never mind', category: 'repair' },
  { phrase: 'nevermind', category: 'repair' },
  { phrase: 'nvm', category: 'repair' },
  { phrase: 'wait', category: 'repair-wait' },
  { phrase: 'actually', category: 'repair-actually' },

  // Discourse fillers.
  { phrase: 'you know', category: 'filler-discourse' },
  { phrase: 'well', category: 'filler-discourse' },

  // Softening: the mitigation people rate in requests and replies (Brown & Levinson's politeness
  // strategies), hand-written from that taxonomy, not mined from any corpus. Conventional indirectness
  // ("could you", "I was wondering"), minimising the imposition ("a bit"), gratitude, acknowledging the
  // other's view, joint framing, apology and well-wishing. Longer phrases win over the hedges inside
  // them, so a polite "could you" softens instead of counting as doubt (or as nothing).
  ...SOFTENING_PHRASES.map((phrase): LexiconEntry => ({ phrase, category: 'soften' })),
];

/** Words after "would"/"could" that make it a polite request or offer rather than doubt. */
export const POLITE_AFTER_MODAL: readonly string[] = [
  'you', 'u', 'we', 'i', 'they', 'he', 'she', 'like', 'love', 'prefer', 'appreciate', 'recommend', 'suggest', 'be', 'rather', 'mind', 'please', 'kindly',
];

/** Words after "would be" that make it an offer ("I would be glad to"), not a guess ("it would be the cache"). */
export const POLITE_AFTER_WOULD_BE: readonly string[] = ['glad', 'happy', 'delighted', 'pleased', 'honored', 'honoured', 'grateful', 'thankful', 'willing', 'able'];

/** Words after an epistemic verb that make it non-epistemic ("think about", "believe in", "guess what"). */
export const NON_EPISTEMIC_NEXT: readonly string[] = [
  'about', 'of', 'through', 'over', 'back', 'ahead', 'twice', 'up', 'out', 'in', 'on', 'me', 'what', 'to', 'anything', 'positive', 'positively', 'straight', 'hard', 'carefully',
];

/** Subjects that make an epistemic verb the writer's own stance ("I think", "we guess", "I'm thinking"). */
export const STANCE_SUBJECTS: readonly string[] = ['i', 'we', "i'm", 'im', "i'd", "i've", 'ive', 'id', "we're", "we'd"];

/** Words that may sit between the subject and the verb ("I don't really think", "I'd have guessed"). */
export const STANCE_BRIDGE: readonly string[] = [
  'do', 'did', 'does', "n't", 'not', 'dont', 'didnt', 'really', 'also', 'just', 'still', 'honestly', 'kinda', 'personally', 'actually', 'would', "'d", "'m", 'am', 'was', 'have', "'ve", 'had', 'kind', 'of', 'sort', 'tend', 'to', 'can', 'ca', 'could', 'might', 'almost', 'always', 'somehow', 'sometimes',
];

/** Determiners before "kind of"/"sort of" that make it a noun phrase ("what kind of", "this sort of"). */
export const KIND_DETERMINERS: readonly string[] = [
  'a', 'an', 'the', 'what', 'which', 'this', 'that', 'these', 'those', 'some', 'any', 'every', 'each', 'one', 'no', 'same', 'other', 'another', 'different', 'right', 'wrong', 'weird', 'certain', 'my', 'your', 'his', 'her', 'their', 'our', 'its', 'whatever', 'that\'s', 'all',
];

/** Spelled-out numbers that make "about"/"around"/"like" an approximator ("about five minutes"). */
export const NUMBER_WORDS: readonly string[] = [
  'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'fifteen', 'twenty', 'thirty', 'forty', 'fifty', 'hundred', 'thousand', 'million', 'half', 'dozen', 'several', 'couple',
];

/** Repeated words that are normal reduplication, not a restart ("no no", "very very", "had had"). */
export const REDUPLICATIONS: readonly string[] = [
  'very', 'really', 'so', 'no', 'yes', 'yeah', 'ha', 'haha', 'he', 'hah', 'bye', 'many', 'much', 'more', 'again', 'on', 'over', 'far', 'long', 'ok', 'okay', 'never', 'go', 'blah', 'now', 'there', 'had', 'that', 'is', 'please', 'knock', 'tick', 'toc', 'hey', 'la', 'round', 'out', 'little', 'well', 'oh', 'lol', 'hmm', 'xo', 'uh', 'um',
];

/** Words around "possible" that make it about ability or feasibility, not likelihood. */
export const NON_EPISTEMIC_POSSIBLE_BEFORE: readonly string[] = [
  'as', 'if', 'whenever', 'wherever', 'when', 'where', 'best', 'made', 'make', 'makes', 'making', 'become', 'became', 'becomes', 'every', 'all', 'any', 'everything', 'anything', 'impossible', 'humanly', 'technically',
];

/** Hyphenated prefixes that look like a restart but are spelling ("re-read", "co-op"). */
export const WORD_PREFIXES: readonly string[] = ['re', 'co', 'de', 'un', 'in', 'ex', 'bi', 'pre', 'non', 'anti', 'self', 'semi', 'sub', 'mis', 'e', 'x'];

/**
 * Tag questions: the phrase must sit between a comma and a question mark (", right?", ", isn't it?").
 * The aux + n't + pronoun forms are generated so each spelling is listed once.
 */
export const TAG_QUESTION_PHRASES: readonly LexiconEntry[] = [
  ...['right', 'yeah', 'yes', 'no', 'eh', 'huh', 'ok', 'okay', 'correct', 'innit', 'yea', 'you know', "don't you think", "wouldn't you say", 'am i right', 'you think', 'true'].map(
    (phrase): LexiconEntry => ({ phrase, category: 'tag' }),
  ),
  ...['is', 'are', 'was', 'were', 'do', 'does', 'did', 'have', 'has', 'had', 'ca', 'could', 'will', 'wo', 'would', 'should', 'ai'].flatMap((aux): LexiconEntry[] =>
    ['it', 'you', 'they', 'he', 'she', 'we', 'i', 'there', 'that'].map((pronoun) => ({ phrase: `${aux}n't ${pronoun}`, category: 'tag' })),
  ),
];

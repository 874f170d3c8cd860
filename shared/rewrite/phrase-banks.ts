// Word-level swaps of the rewriter, per dial. Plain words only, and nothing that speaks of a human
// life or denies being an AI (see human-claim.ts). The engine decides whether a swap helps: a swap
// is only ever kept when the target profile's score goes up.

/** Expanded form -> contraction (case of the first letter is kept). */
export const CONTRACTIONS: ReadonlyArray<readonly [string, string]> = [
  ['do not', "don't"],
  ['does not', "doesn't"],
  ['did not', "didn't"],
  ['is not', "isn't"],
  ['are not', "aren't"],
  ['was not', "wasn't"],
  ['were not', "weren't"],
  ['have not', "haven't"],
  ['has not', "hasn't"],
  ['cannot', "can't"],
  ['can not', "can't"],
  ['will not', "won't"],
  ['would not', "wouldn't"],
  ['should not', "shouldn't"],
  ['could not', "couldn't"],
  ['I am', "I'm"],
  ['you are', "you're"],
  ['we are', "we're"],
  ['they are', "they're"],
  ['it is', "it's"],
  ['that is', "that's"],
  ['there is', "there's"],
  ['what is', "what's"],
  ['I will', "I'll"],
  ['you will', "you'll"],
  ['we will', "we'll"],
  ['it will', "it'll"],
  ['I would', "I'd"],
  ['let us', "let's"],
];

/** Contraction -> expanded form, for profiles that write out their words. */
export const EXPANSIONS: ReadonlyArray<readonly [string, string]> = [
  ["don't", 'do not'],
  ["doesn't", 'does not'],
  ["didn't", 'did not'],
  ["isn't", 'is not'],
  ["aren't", 'are not'],
  ["wasn't", 'was not'],
  ["weren't", 'were not'],
  ["haven't", 'have not'],
  ["hasn't", 'has not'],
  ["can't", 'cannot'],
  ["won't", 'will not'],
  ["wouldn't", 'would not'],
  ["shouldn't", 'should not'],
  ["couldn't", 'could not'],
  ["I'm", 'I am'],
  ["you're", 'you are'],
  ["we're", 'we are'],
  ["they're", 'they are'],
  ["it's", 'it is'],
  ["that's", 'that is'],
  ["there's", 'there is'],
  ["what's", 'what is'],
  ["I'll", 'I will'],
  ["you'll", 'you will'],
  ["we'll", 'we will'],
  ["I've", 'I have'],
  ["you've", 'you have'],
  ["we've", 'we have'],
  ["I'd", 'I would'],
  ["let's", 'let us'],
];

/** Slang and chat shorthand -> written-out form (raises the register). */
export const SLANG_TO_FORMAL: ReadonlyArray<readonly [string, string]> = [
  ['gonna', 'going to'],
  ['wanna', 'want to'],
  ['gotta', 'have to'],
  ['kinda', 'kind of'],
  ['sorta', 'sort of'],
  ['u', 'you'],
  ['ur', 'your'],
  ['thx', 'thanks'],
  ['pls', 'please'],
  ['plz', 'please'],
  ['idk', "I don't know"],
  ['btw', 'by the way'],
  ['tbh', 'to be honest'],
  ['imo', 'in my opinion'],
  ['cuz', 'because'],
  ['yeah', 'yes'],
  ['yep', 'yes'],
  ['yup', 'yes'],
  ['nope', 'no'],
];

/** Formal words -> casual ones (lowers the register). */
export const FORMAL_TO_CASUAL: ReadonlyArray<readonly [string, string]> = [
  ['hello', 'hey'],
  ['thank you', 'thanks'],
  ['yes', 'yeah'],
  ['however', 'but'],
  ['therefore', 'so'],
  ['purchase', 'buy'],
  ['assist', 'help'],
  ['require', 'need'],
  ['approximately', 'about'],
  ['sufficient', 'enough'],
];

/** Words from the published excess-vocabulary lists -> a plain word. */
export const PLAIN_WORDS: Readonly<Record<string, string>> = {
  delve: 'dig',
  delves: 'digs',
  delving: 'digging',
  crucial: 'key',
  pivotal: 'key',
  intricate: 'complex',
  meticulous: 'careful',
  meticulously: 'carefully',
  showcase: 'show',
  showcasing: 'showing',
  showcases: 'shows',
  underscore: 'stress',
  underscores: 'stresses',
  comprehensive: 'full',
  robust: 'solid',
  seamless: 'smooth',
  seamlessly: 'smoothly',
  leverage: 'use',
  utilize: 'use',
  utilizes: 'uses',
  utilizing: 'using',
  realm: 'area',
  tapestry: 'mix',
  testament: 'sign',
  commendable: 'good',
  notable: 'big',
  versatile: 'flexible',
  innovative: 'new',
  furthermore: 'also',
  moreover: 'also',
  additionally: 'also',
  foster: 'build',
  fostering: 'building',
  navigate: 'handle',
  navigating: 'handling',
  multifaceted: 'complex',
  paramount: 'key',
  vibrant: 'lively',
  enhance: 'improve',
  enhancing: 'improving',
};

/** Epistemic hedges and fillers the rewriter may delete (too hesitant for the profile). */
export const HEDGE_DELETIONS: readonly RegExp[] = [
  /\b(?:i think|i guess|i believe|i feel like|i suppose)\b,? ?/gi,
  /\b(?:maybe|perhaps|probably|possibly|somewhat|kind of|sort of|kinda|sorta|basically)\b,? ?/gi,
  /\b(?:um+|uh+|hmm+|erm+)\b,? ?/gi,
];

/** Openers that add a hedge to a sentence (too certain for the profile). */
export const HEDGE_OPENERS: readonly string[] = ['I think ', 'Maybe ', 'I mean, '];

/**
 * First words a hedge opener must not go before ("I think ask him" is not English): imperatives,
 * question words, connectives and interjections.
 */
export const NO_HEDGE_BEFORE = new Set(
  'ask try go just check restart run make take call use get do don\'t let keep stop start see read look tell give put open close send be please hope sorry thanks thank is are was were does did can could would should will what why how when where who which however but and so also furthermore moreover additionally yes no yeah well oh hey hi hello ok okay maybe perhaps probably'.split(' '),
);

/** Sentence openers that cushion a reply (too direct for the profile). */
export const SOFTENING_OPENERS: readonly string[] = ['Hi! ', 'Sorry, '];
/** A closing thanks that cushions a reply. */
export const SOFTENING_CLOSER = ' Thanks!';
/** An indirect opener for a later sentence. */
export const BY_THE_WAY = 'By the way, ';

/** A whole sentence of greeting, thanks or apology (a preamble to delete when too indirect). */
export const PREAMBLE_SENTENCE =
  /^(?:(?:hi|hello|hey|greetings|good (?:morning|afternoon|evening))(?: there)?|(?:thanks|thank you)(?: so much| very much)?(?: for [^.!?]{0,60})?|(?:i'm |i am )?sorry(?: for [^.!?]{0,60})?|i apologi[sz]e(?: for [^.!?]{0,60})?)[.!,]*$/i;

/**
 * Words of distress in the incoming message. Warmth is only added when the message carries some:
 * "I'm sorry to hear that" in answer to a trivia question would be a machine tell of its own.
 */
export const DISTRESS =
  /\b(?:sad|stress(?:ed|ful)?|scared|afraid|lost|died|dead|death|hurt|pain|depress(?:ed|ion)?|anxious|anxiety|awful|terrible|sucks|hate|can't|cannot|alone|lonely|broke|fail(?:ed|ing|s)?|sick|worried|upset|angry|cry(?:ing)?|tired|exhausted|overwhelmed|frustrat(?:ed|ing)|help|struggl(?:e|ing)|miss|sorry)\b/i;

/** Emotional-reaction and reflection openers (too little warmth for the profile and the message). */
export const EMPATHY_OPENERS: readonly string[] = ["I'm sorry to hear that. ", 'That sounds really hard. ', "I'm sorry, that sounds really hard. "];
/** A closing question about the other person's experience. */
export const EMPATHY_CLOSERS: readonly string[] = [' How are you holding up?', ' How are you feeling about it?'];
/** A sentence that carries warmth (deleted when the profile wants less). */
export const WARM_SENTENCE = /\b(?:sorry to hear|i'm sorry|i am sorry|hang in there|i hope you|you're not alone|here for you|that sounds|that must be)\b/i;

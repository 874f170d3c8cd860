import type { LexiconEntry } from '../lexicon';
import { EXPLORATION_OPENERS, REACTION_PHRASES, SHARED_EXPERIENCE_PHRASES, SUPPORT_PHRASES } from './empathy-theory';

/**
 * Curated phrases for the empathy dimension, by EPITOME mechanism.
 *
 * Sources: the `er`, `ip-share` and `ex-ask` lists are written from the published definitions of
 * empathic communication, reflective listening and validation (empathy-theory.ts gives the references)
 * and no longer hold anything first found by mining EPITOME; the lists added with engine 1.5.0
 * (perspective by self-projection, validation, dismissal, phatic small talk, concern words) are
 * hand-written from the same literature; the remaining lists are common reflective-listening templates.
 * Apostrophe-less spellings ("im", "youre") are listed because forum and chat text drops them.
 *
 * Categories:
 * - `er`: emotional reaction (warmth, concern, support). Weight 2 marks an explicit feeling word
 *   ("sorry", "heartbreaking"), weight 1 a supportive formula ("hang in there", "good luck").
 * - `ip-reflect`, `ip-perspective`, `ip-validate`: interpretation by reflection ("sounds like", "so you're"),
 *   by perspective-taking ("I can imagine", "that must be") and by validation ("that makes sense").
 * - `ip-share`: interpretation by shared experience ("me too", "I've been there", "I used to").
 * - `er-ip`: shared feeling ("me too", "I feel the same"); EPITOME raters count it as both a reaction and an
 *   interpretation, so it marks both.
 * - `ip-lead`: IP only as the first word of a sentence.
 * - `none`: a stock phrase that blocks a shorter marker inside it and counts for nothing.
 * - `ex`: exploration that works without a question mark ("tell me more", "I'm curious").
 * - `ex-ask`: a question opener aimed at the person; counts only in a question (see empathy.ts).
 * - `perspective`: perspective-taking by putting oneself in their place, with no EPITOME mechanism of its own.
 * - `phatic`: greetings, goodbyes and laughter (no mechanism; lowers the value).
 * - `dismiss`: brushing the feeling aside or rushing past it ("at least", "calm down", "could be worse").
 */
export const EMPATHY_PHRASES: readonly LexiconEntry[] = [
  // ER: reactions and support, written from theory (empathy-theory.ts).
  ...REACTION_PHRASES,
  ...SUPPORT_PHRASES,

  // ER and IP at once: a shared feeling.
  ...[
    'me too', 'same here', 'i feel the same', 'feel the same way', 'i can relate', 'i relate', 'i know how you feel', 'i know how it feels', 'i hear you', 'i know your pain', 'i feel your pain', 'you and me both',
    'me as well', 'i know the feeling', 'i know that feeling', 'i feel like this', 'i feel this way', 'i feel that way', 'i know exactly', 'i totally get it', 'i understand how you feel',
  ].map((phrase): LexiconEntry => ({ phrase, category: 'er-ip', weight: 1 })),

  // IP by reflection: restating what the person feels or went through (reflective listening).
  ...[
    'sounds like', 'it sounds', 'that sounds', 'sounds really', 'sounds so', 'sounds hard', 'sounds awful', 'you feel like', "you're feeling", 'youre feeling', 'you are feeling', 'you seem',
    'seems like you', 'it seems like you', 'you mentioned', 'you said that', 'if i understand', 'if i understood', "what i'm hearing", 'what i am hearing', "so you're", 'so you are', 'so you feel',
    'so you have', 'so what you', 'in other words', "you've been through", 'you have been through', "you're going through", 'you are going through', 'what you are going through',
    "what you're going through", 'going through a lot',
  ].map((phrase): LexiconEntry => ({ phrase, category: 'ip-reflect', weight: 1 })),
  // IP by perspective-taking: imagining or understanding the person's position.
  ...[
    'must be', 'must feel', 'must have been', 'must have felt', 'i can imagine', "can't imagine", 'cant imagine', 'can only imagine', 'i understand', 'i totally understand', 'i completely understand',
    'i get it', 'i get that', 'i get you', 'i know how you feel', 'i know how', 'i know what you', 'i know what it', 'know the feeling', 'know that feeling', 'know what it feels like',
    "know what it's like", 'i can relate', 'can relate', 'relate to', 'i relate', 'you must feel', 'in your shoes', 'i know you', 'i know this is', "i know it's", 'i know that is', "i know that's",
    'i realize this', 'i realise this', 'i can see why', 'i can see how', 'i see why', 'i see how',
  ].map((phrase): LexiconEntry => ({ phrase, category: 'ip-perspective', weight: 1 })),
  // Perspective-taking by putting oneself in the other's place ("I would be scarred for life", "if that were me").
  ...[
    'i would be', "i'd be", 'id be', 'i would have', "i'd have", 'i would feel', "i'd feel", 'i would go', "i'd go", 'i would never', "i wouldn't be", 'i would not be', 'if i were', 'if i was',
    'if that was me', 'if that were me', 'if it was me', 'if it were me', 'if that happened to me', 'put myself in', 'imagine being', 'imagine having', 'imagine losing', 'imagine how', 'had to have been',
    'must have been', "can't even imagine", 'cant even imagine', 'can not imagine', 'cannot imagine',
  ].map((phrase): LexiconEntry => ({ phrase, category: 'perspective', weight: 1 })),
  // IP by validation: the feeling is legitimate ("that makes sense", "anyone would").
  ...[
    'understandable', "it's understandable", 'that makes sense', 'makes sense that you', 'it makes sense that you', 'no wonder', 'of course you', 'feelings are valid', 'that is valid', "that's valid",
    'completely valid', 'totally valid', "it's normal to", 'it is normal to', "it's natural to", 'it is natural to', 'normal to feel', 'natural to feel', 'okay to feel', 'ok to feel', 'perfectly normal',
    'completely normal', 'totally normal', 'anyone would', 'anybody would', 'makes total sense', 'makes complete sense', 'fair enough', 'doing the right thing', 'did the right thing',
    'right to feel', 'every right to',
    ...['disappointing', 'frustrating', 'scary', 'stressful', 'exhausting', 'overwhelming', 'upsetting', 'painful', 'lonely', 'annoying', 'a lot to deal with', 'a lot to carry'].flatMap(
      (feeling) => [`that's ${feeling}`, `that's so ${feeling}`, `that's really ${feeling}`, `thats ${feeling}`, `that is ${feeling}`, `how ${feeling}`, `must be ${feeling}`],
    ),
  ].map((phrase): LexiconEntry => ({ phrase, category: 'ip-validate', weight: 1 })),
  // IP, shared experience (empathy-theory.ts).
  ...SHARED_EXPERIENCE_PHRASES,

  // IP, "same" only as a sentence opener ("Same. I stopped sleeping too"); elsewhere it is mostly "the same file".
  { phrase: 'same', category: 'ip-lead', weight: 1 },

  // Stock closers that contain a marker word but show no empathy; listing them stops the shorter marker
  // ("i hope") from matching inside them, because the longest phrase wins.
  ...['i hope this helps', 'hope this helps', 'i hope that helps', 'hope that helps', 'i hope you find this helpful', 'hope you find this helpful', 'i hope this answers', 'hope this answers'].map(
    (phrase): LexiconEntry => ({ phrase, category: 'none', weight: 0 }),
  ),

  // EX, explorations without a question mark.
  ...['tell me more', 'tell me about', 'can you tell me', "i'm curious", 'im curious', 'i wonder if you', "i'm wondering if you", 'want to talk about it', 'wanna talk about it', 'what happened', "what's going on", 'whats going on'].map(
    (phrase): LexiconEntry => ({ phrase, category: 'ex', weight: 1 }),
  ),
  // EX, question openers (need a question; empathy-theory.ts).
  ...EXPLORATION_OPENERS,

  // Dismissal: minimising the feeling or hurrying the person past it (the opposite of validation).
  ...[
    'could be worse', 'could have been worse', 'calm down', "don't be sad", 'dont be sad', "don't cry", 'dont cry', 'cheer up', 'not a big deal', 'no big deal', "it's not that bad",
    'its not that bad', 'stop worrying', 'look on the bright side', 'happens to everyone', "it's not the end of the world", 'not the end of the world', 'stop crying', 'stop whining',
    "you're overthinking", 'youre overthinking', 'you are overthinking', "you're being dramatic", 'you are being dramatic', 'no reason to be',
  ].map((phrase): LexiconEntry => ({ phrase, category: 'dismiss', weight: 1 })),

  // Phatic small talk: greetings, goodbyes and laughter are about the conversation, not the person.
  ...[
    'hi', 'hello', 'hey there', 'bye', 'goodbye', 'good bye', 'byee', 'haha', 'hahaha', 'hahahaha', 'hah', 'hehe', 'lol', 'lmao', 'nice talking', 'nice chatting', 'great talking', 'great chatting',
    'have a great day', 'have a good day', 'have a nice day', 'have a great night', 'have a good night', 'have a great rest', 'nice to meet you', 'good morning', 'good afternoon', 'good evening',
  ].map((phrase): LexiconEntry => ({ phrase, category: 'phatic', weight: 1 })),
];

/**
 * Valence words of the reply itself, for the ER adjustment: warmth pulls ER up, contempt pulls it down.
 * A small curated list stands in for VADER so the measure stays a few microseconds.
 * Profanity is deliberately absent: on Reddit it comes with sympathy as often as with contempt ("that fucking sucks").
 */
export const VALENCE_PHRASES: readonly LexiconEntry[] = [
  ...['love', 'care', 'caring', 'kind', 'kindness', 'gentle', 'glad', 'happy', 'proud', 'wonderful', 'beautiful', 'amazing', 'awesome', 'strong', 'brave', 'worth', 'hope', 'better', 'support', 'friend', 'safe', 'comfort', 'warm', 'peace', 'heal', 'healing', 'thank', 'thanks', 'sweet', 'deserve'].map(
    (phrase): LexiconEntry => ({ phrase, category: 'warm', weight: 1 }),
  ),
  ...[
    'stupid', 'idiot', 'idiotic', 'dumb', 'pathetic', 'loser', 'whining', 'whine', 'grow up', 'get over it', 'get over yourself', 'man up', 'shut up', 'stfu', 'your fault', 'deserve it', 'who cares', 'nobody cares',
    'no one cares', 'lazy', 'selfish', 'attention seeking', 'attention whore', 'drama', 'crybaby', 'cry baby', 'ridiculous', 'stop complaining', 'quit complaining', 'just do it', 'suck it up', 'toughen up', 'weak',
    'snowflake', 'overreacting', 'over reacting', 'pull yourself together', 'first world problem', 'cry me a river', 'not my problem', 'your problem',
  ].map((phrase): LexiconEntry => ({ phrase, category: 'cold', weight: 1 })),
];

/**
 * Distress and negative-emotion phrases for the emotional load of the incoming message.
 * Weight 2 marks acute distress (self-harm, terror, "can't cope"), 1 ordinary negative feeling.
 */
export const DISTRESS_PHRASES: readonly LexiconEntry[] = [
  ...[
    'suicide', 'suicidal', 'kill myself', 'end my life', 'end it all', 'want to die', 'wanna die', 'wish i was dead', 'wish i were dead', 'self harm', 'self-harm', 'cutting myself', 'cut myself', 'hurt myself',
    'terrified', 'petrified', 'panic', 'panicking', 'panic attack', 'panic attacks', 'hopeless', 'helpless', 'worthless', 'devastated', 'heartbroken', 'desperate', 'traumatized', 'traumatised', 'trauma',
    "can't cope", 'cant cope', 'cannot cope', "can't take it", "can't take this", "can't do this anymore", "can't handle", 'cant handle', 'falling apart', 'breaking down', 'broke down', 'give up', 'giving up',
    'please help', 'help me', 'help please', 'hate myself', 'hate my life', 'no reason to live', 'nothing to live for', 'abused', 'abuse', 'grief', 'grieving', 'passed away', 'died', 'funeral', 'miserable',
    'crying', 'sobbing', 'kill me', 'unbearable', "can't go on", 'cant go on', 'nothing to look forward to', 'no point', 'wrong with me', 'in a bad place', 'worst year', 'worst day', 'bullied',
  ].map((phrase): LexiconEntry => ({ phrase, category: 'distress', weight: 2 })),
  ...[
    'sad', 'sadness', 'depressed', 'depression', 'anxious', 'anxiety', 'scared', 'afraid', 'frightened', 'fear', 'nervous', 'worried', 'worry', 'worrying', 'stressed', 'stress', 'stressful', 'overwhelmed',
    'exhausted', 'burnt out', 'burned out', 'burnout', 'tired of', 'sick of', 'fed up', 'lonely', 'alone', 'isolated', 'empty', 'numb', 'lost', 'hurt', 'hurts', 'hurting', 'pain', 'painful', 'cry', 'cried',
    'tears', 'upset', 'angry', 'furious', 'frustrated', 'frustrating', 'annoyed', 'ashamed', 'guilty', 'embarrassed', 'rejected', 'unloved', 'unwanted', 'ugly', 'useless', 'failure', 'failed', 'failing',
    'struggling', 'struggle', 'suffering', 'awful', 'terrible', 'horrible', 'nightmare', 'broke up', 'breakup', 'dumped', 'fired', 'lost my job', 'laid off', 'sick', 'ill', 'hospital', 'dying', 'dead',
    'scary', 'freaking out', 'freaked out', 'losing my mind', 'ugh', 'fml', 'disappointed', 'heartbreak', 'miss her', 'miss him', 'miss them', 'hate', 'insomnia', "can't sleep", 'cant sleep', 'overthinking',
    'cannot sleep', 'can not sleep', 'tired', 'exhausting', 'rough', 'worst', 'stuck', 'pointless', 'meaningless', 'insignificant', 'burden', 'my fault', 'unhappy', 'not happy', 'not okay', 'not ok',
    'not fine', 'not good', 'feel like shit', 'feel like crap', 'like shit', 'crap', 'sucks', 'depressing', 'hopelessness', 'bully', 'homesick', 'homesickness', 'heavy', 'difficult', 'no friends', 'nobody cares',
    'no one cares', 'fuck', 'fucking', 'wtf', 'damn it', 'dammit', 'argh', 'why me', 'what do i do', 'what should i do', 'what can i do', ':(', ':\'(', 'd:',
  ].map((phrase): LexiconEntry => ({ phrase, category: 'distress', weight: 1 })),
];

/**
 * First-person stances that state an opinion or a politeness, not an experience ("I think", "I'm not sure",
 * "I'm afraid"): they do not count toward the self-disclosure rule for interpretations.
 */
export const STANCE_AFTER_I: readonly string[] = [
  'think', 'guess', 'mean', 'hope', 'suppose', 'believe', 'wonder', 'suggest', 'recommend', 'know', 'would', 'will', 'can', 'ca', 'could', 'should', 'might', 'may', 'afraid', 'sure',
];

/** Words skipped when looking for the stance after "I" ("I really don't think", "I'm not sure"). */
export const STANCE_SKIP: readonly string[] = ['do', "n't", 'dont', 'not', 'am', "'m", 'really', 'honestly', 'just', 'also', 'personally', 'genuinely', 'totally', 'kinda', "'d", "'ll"];

/** Tokens after a lowercase "i" that make it a loop variable, not the writer ("while i is less than 10", "i = i + 1"). */
export const VARIABLE_I_NEXT: readonly string[] = ['is', 'has', 'does', 'equals', '=', '+', '-', '<', '>', '++', '--', '+=', '-=', '*', '/', '<=', '>=', '==', ')', ']', ','];

/** Negators that cancel a distress word right before it ("not worried", "never scared"). */
export const DISTRESS_NEGATORS: readonly string[] = ['not', "n't", 'never', 'no', 'without', 'nt'];

/** Words allowed between a negator and the distress word ("not really worried", "isn't that bad"). */
export const NEGATION_BRIDGE: readonly string[] = ['really', 'very', 'so', 'too', 'that', 'be', 'at', 'all', 'even', 'as', 'feeling', 'getting', 'overly', 'particularly', 'remotely'];

/**
 * Content stems too empty to show that a sentence is about the other person's situation ("get", "thing"):
 * sharing one of these does not make a marker specific. Kept short on purpose: feeling words such as
 * "feel" are what EPITOME's specific reactions and questions share with the seeker's post.
 */
export const GENERIC_STEMS: readonly string[] = ['get', 'got', 'go', 'went', 'do', 'did', 'be', 'have', 'had', 'make', 'made', 'thing', 'lot', 'way', 'say', 'said', 'let', 'put', 'use', 'us'];

/**
 * Words that name a feeling or how a situation feels, from a general emotion vocabulary (Plutchik's
 * families and the everyday feeling words of reflective-listening manuals), not mined from any corpus.
 * They feed the construction rules of empathy.ts: "you must feel <word>", "I'm <word> for you",
 * "that's so <word>". Ambiguous everyday words ("down", "good", "lost" as in a game) are left out.
 */
export const EMOTION_WORDS: readonly string[] = [
  'sad', 'sadness', 'unhappy', 'upset', 'upsetting', 'hurt', 'hurting', 'hurtful', 'pain', 'painful', 'angry', 'anger', 'mad', 'furious', 'annoyed', 'annoying', 'irritated',
  'frustrated', 'frustrating', 'frustration', 'lonely', 'loneliness', 'alone', 'isolated', 'scared', 'afraid', 'frightened', 'frightening', 'terrified', 'fear', 'fearful', 'scary',
  'anxious', 'anxiety', 'worried', 'worry', 'worrying', 'nervous', 'stressed', 'stress', 'stressful', 'overwhelmed', 'overwhelming', 'exhausted', 'exhausting', 'tired', 'drained',
  'depressed', 'depressing', 'hopeless', 'helpless', 'worthless', 'heartbroken', 'heartbreaking', 'devastated', 'devastating', 'crushed', 'disappointed', 'disappointing',
  'disappointment', 'ashamed', 'shame', 'guilty', 'guilt', 'embarrassed', 'embarrassing', 'jealous', 'insecure', 'confused', 'confusing', 'betrayed', 'rejected', 'abandoned',
  'unloved', 'unwanted', 'miserable', 'awful', 'terrible', 'horrible', 'hard', 'tough', 'rough', 'difficult', 'unfair', 'sorry', 'bad', 'heavy', 'stuck', 'trapped', 'grief',
  'grieving', 'vulnerable', 'discouraged', 'defeated', 'desperate', 'numb', 'empty', 'broken', 'panic', 'panicked', 'bitter', 'resentful', 'uneasy', 'uncomfortable', 'torn',
  'hurtful', 'sucks', 'shitty', 'crappy', 'traumatic', 'traumatized', 'distressed', 'distressing', 'troubled', 'troubling', 'emotional', 'sensitive', 'homesick', 'bored',
  'happy', 'glad', 'relieved', 'proud', 'excited', 'hopeful', 'grateful', 'thankful', 'joy', 'joyful', 'calm', 'comfortable', 'confident', 'content', 'peaceful', 'encouraged', 'loved',
];

/** Verbs and nouns of feeling: "you feel", "your feelings"; enough for a second-person attribution, not for a first-person one ("I feel like we should"). */
export const FEELING_WORDS: readonly string[] = ['feel', 'feels', 'felt', 'feeling', 'feelings', 'emotions', 'emotion', 'emotionally'];

/**
 * Words that describe the person's worth or strength; after "you" (optionally "are", "such a") they affirm
 * them, ESConv's "affirmation and reassurance" ("you are a strong person", "you're doing great").
 */
export const AFFIRMATION_WORDS: readonly string[] = [
  'strong', 'brave', 'capable', 'smart', 'worthy', 'worth', 'enough', 'important', 'valued', 'amazing', 'kind', 'good', 'great', 'awesome', 'beautiful', 'special', 'resilient',
  'courageous', 'talented', 'wonderful', 'loving', 'caring', 'intelligent', 'deserve', 'deserving', 'fine', 'okay', 'ok', 'right', 'welcome',
];

/**
 * Words that may stand between the subject and the feeling word of a construction: modals, copulas,
 * feeling verbs, intensifiers and negators ("you must be so", "I am really", "that is just").
 */
export const ATTRIBUTION_BRIDGE: readonly string[] = [
  'must', 'might', 'may', 'probably', 'likely', 'seem', 'seems', 'seemed', 'sound', 'sounds', 'are', "'re", 're', 'r', 'were', 'was', 'is', "'s", 'be', 'been', 'being', 'am', "'m",
  "'ve", "'d", "'ll", 'will', 'would', 'feel', 'felt', 'feeling', 'get', 'getting', 'got', 'so', 'very', 'really', 'quite', 'pretty', 'bit', 'a', 'an', 'little', 'lot', 'kind',
  'of', 'kinda', 'sort', 'all', 'too', 'still', 'just', 'also', 'definitely', 'certainly', 'understandably', 'naturally', 'truly', 'such', 'extremely', 'incredibly', 'super',
  'totally', 'completely', 'deeply', 'not', "n't", 'never', 'doing', 'going', 'through', 'person',
];

/** Words that refer to the situation, for an evaluation of it: "that's so hard", "how awful", "how awful". */
export const SITUATION_WORDS: readonly string[] = ['that', 'this', 'it', 'how', 'what', 'thats', 'its', 'sounds', 'seems'];

/**
 * Suggestions dressed as questions or statements ("have you tried", "you should"): ESConv's "providing
 * suggestions". They are not explorations of the person's feelings, so a question holding one is not EX.
 */
export const SUGGESTION_PHRASES: readonly string[] = [
  'have you tried', 'have you considered', 'have you thought about', 'have you ever tried', 'did you try', 'why not', "why don't you", 'why dont you', 'how about',
  'could you try', 'can you try', 'you should', 'you could', 'you need to', 'you have to', 'you can try', 'maybe you should', 'maybe you could', 'would you consider', 'try to', 'i suggest',
  'i recommend', 'i would suggest', "i'd suggest", 'my advice', 'you might want to', 'you may want to', 'you might try', 'you ought to', 'have you talked to', 'have you spoken to',
  'have you asked', 'is there any way',
];

/**
 * Words of concern for someone's suffering, whoever it is ("it's so sad what happened to them", "those
 * poor kids", "that's cruel"): compassion and moral concern as people express it about a third party,
 * from a general emotion vocabulary, not mined from any corpus.
 */
export const CONCERN_WORDS: readonly string[] = [
  'sad', 'sadly', 'saddening', 'tragic', 'tragedy', 'tragically', 'heartbreaking', 'heartbroken', 'heartbreak', 'devastating', 'devastated', 'awful', 'terrible', 'horrible', 'horrific',
  'horrifying', 'dreadful', 'cruel', 'cruelty', 'unfair', 'unjust', 'injustice', 'suffering', 'suffer', 'suffered', 'suffers', 'victim', 'victims', 'poor', 'innocent', 'hurt', 'hurting',
  'painful', 'pain', 'sorry', 'shame', 'shameful', 'disturbing', 'upsetting', 'heartless', 'inhumane', 'inhuman', 'abuse', 'abused', 'helpless', 'vulnerable',
  'compassion', 'sympathy', 'empathy', 'grief', 'grieving', 'mourning', 'scary', 'terrifying', 'frightening', 'depressing', 'sickening', 'disgusting', 'appalling',
  'outrageous', 'scared', 'afraid', 'lonely', 'alone', 'struggling', 'struggle', 'hardship', 'desperate', 'crying', 'cry', 'cried', 'tears', 'traumatic', 'trauma', 'feel', 'feeling', 'felt', 'feelings',
];

import { normalizeForTagger } from './analyze';
import type { SignalContext, SignalHit } from './measure-types';
import { spanOf } from './span';
import type { Analysis, Span } from './types';
import { wordFact } from './word';

// Machine-like signals. Every rule is a precompiled regex over a lowercased,
// same-length copy of the reply, or a set lookup on token norms, so each hit maps back to exact
// UTF-16 offsets in the original text. Dev-data figures quoted below are "texts with a hit,
// human/AI" on mgtbench-truthfulqa (817 pairs) and fastdetect-gpt34 writing and xsum (300 pairs
// each, shared opening stripped).

/**
 * Formality assumed when the caller gives no profile. At 0.5 the em-dash rule (< 0.6) still
 * applies, while no-contractions (< 0.5) needs an explicit casual profile: expanded forms are
 * normal in formal and learner English, so without a profile they are never called machine-like.
 */
const NEUTRAL_FORMALITY = 0.5;

interface RuleMeta {
  severity: number;
  saturation: number;
  hardFail: boolean;
  rule: string;
  source: string;
}

// Severities: where a signal is "x per hit, max y", severity is the maximum and
// saturation is y / x, so p = severity * min(1, count / saturation) grows by x per hit up to y.
const RULES: Record<string, RuleMeta> = {
  'ai-self-disclosure': {
    severity: 1,
    saturation: 1,
    hardFail: true,
    rule: 'regex: canned AI disclaimers ("as an AI ...,", "I\'m just a language model", "I don\'t have personal opinions")',
    source: 'definitional',
  },
  'assistant-boilerplate': {
    severity: 0.6,
    saturation: 0.6 / 0.35,
    hardFail: false,
    rule: 'phrase list: assistant openers, closers and canned refusals (start/end anchored)',
    source: 'practitioner-lists; reddit-check',
  },
  'markdown-structure': {
    severity: 0.4,
    saturation: 1,
    hardFail: false,
    rule: 'line-start regex: headings, lists, tables, code fences; bold markers',
    source: 'reddit-check; chat-norm',
  },
  'excess-vocab': {
    severity: 0.45,
    saturation: 3,
    hardFail: false,
    rule: 'word list at density: LLM-overused style words (tier 1 >= 1 per 100 words, tier 2 counts half)',
    source: 'kobak2025; liang2024; juzek-ward2025',
  },
  'uniform-sentences': {
    severity: 0.2,
    saturation: 1,
    hardFail: false,
    rule: '>= 4 sentences and sentence-length CV < 0.25',
    source: 'gptzero-burstiness; munoz-ortiz2024; reddit-check',
  },
  'no-contractions': {
    severity: 0.2,
    saturation: 1,
    hardFail: false,
    rule: '>= 3 contraction opportunities, contracted share < 0.3, profile formality < 0.5',
    source: 'reddit-check; reinhart2025',
  },
  'em-dash': {
    severity: 0.1,
    saturation: 1,
    hardFail: false,
    rule: '>= 1 em dash per 60 words, profile formality < 0.6',
    source: 'chambers2025',
  },
  signposting: {
    severity: 0.3,
    saturation: 3,
    hardFail: false,
    rule: 'phrase list: signposts ("it\'s worth noting", "in summary", sentence-initial "Overall,")',
    source: 'practitioner-lists; hc3-guo2023',
  },
  'generic-caveat': {
    severity: 0.2,
    saturation: 2,
    hardFail: false,
    rule: 'phrase list: stock caveats ("it\'s difficult to say", "varies depending on", "it\'s always best to")',
    source: 'dev-check: mgtbench-truthfulqa',
  },
  'length-mismatch': {
    severity: 0.15,
    saturation: 1,
    hardFail: false,
    rule: 'words > 3x the profile\'s typical reply length',
    source: 'baron2004; ling-baron2007',
  },
  'relentless-positivity': {
    severity: 0.05,
    saturation: 1,
    hardFail: false,
    rule: '>= 3 sentences, >= 2 positive words, no negative or hedging word',
    source: 'munoz-ortiz2024',
  },
};

/** Ids of the signals this module can emit (superhuman-latency belongs to the timing model). */
export const SIGNAL_IDS: readonly string[] = Object.keys(RULES);

/**
 * A lowercased copy of the text with the same length and offsets: curly apostrophes become
 * straight (as the tagger sees them) and any character whose lowercase form would change the
 * length (e.g. U+0130) is kept as it is.
 * @param text - the original reply
 * @returns the copy every regex in this module runs on
 */
export function lowerCopy(text: string): string {
  const copy = normalizeForTagger(text);
  const lower = copy.toLowerCase();
  if (lower.length === copy.length) return lower;
  let out = '';
  for (let i = 0; i < copy.length; i++) {
    const l = copy[i].toLowerCase();
    out += l.length === 1 ? l : copy[i];
  }
  return out;
}

/**
 * A regex guarded by trigger words: it only runs when one of its triggers (and, if given, one of
 * its second triggers) occurs among the reply's token norms. Most replies contain none, and one
 * pass over the tokens is far cheaper than dozens of regex scans (speed budget: signals and
 * human_likeness together within ~80 us for a 100-word reply).
 */
interface GuardedRule {
  re: RegExp;
  triggers: readonly string[];
  /** A second trigger group that must also occur (any one of them). */
  alsoTriggers?: readonly string[];
  anchor?: Anchor;
  /** Index of the rule in the candidate flags, assigned by {@link indexRules}. */
  slot: number;
}

type Anchor = 'start' | 'end' | 'any';

/** Trigger word -> rule codes: slot * 4 + bit, bit 1 = a trigger, bit 2 = a second trigger. */
const TRIGGER_INDEX = new Map<string, number[]>();
/** Per slot, the trigger bits a rule needs: 1, or 3 with second triggers. */
const NEEDED_BITS: number[] = [];

function indexRules(specs: readonly Omit<GuardedRule, 'slot'>[]): readonly GuardedRule[] {
  return specs.map((spec) => {
    const rule: GuardedRule = { ...spec, slot: NEEDED_BITS.length };
    NEEDED_BITS.push(rule.alsoTriggers ? 3 : 1);
    for (const [words, bit] of [[rule.triggers, 1], [rule.alsoTriggers ?? [], 2]] as const) {
      for (const w of words) {
        const list = TRIGGER_INDEX.get(w) ?? [];
        list.push(rule.slot * 4 + bit);
        TRIGGER_INDEX.set(w, list);
      }
    }
    return rule;
  });
}

/** The rule codes a word triggers, or null (read once all rules are indexed, at scoring time). */
const triggerCodes = wordFact((norm: string): number[] | null => TRIGGER_INDEX.get(norm) ?? null);

const candidateCache = new WeakMap<Analysis, Uint8Array>();

/**
 * Flags by rule slot: 1 when the rule's trigger words all occur in the analysis (memoized per
 * analysis). Flat arrays rather than a map and a set per reply (speed).
 */
function candidates(a: Analysis): Uint8Array {
  let live = candidateCache.get(a);
  if (live) return live;
  live = new Uint8Array(NEEDED_BITS.length);
  for (const t of a.tokens) {
    const codes = triggerCodes(t.word);
    if (codes) for (const code of codes) live[code >> 2] |= code & 3;
  }
  for (let k = 0; k < live.length; k++) live[k] = (live[k] & NEEDED_BITS[k]) === NEEDED_BITS[k] ? 1 : 0;
  candidateCache.set(a, live);
  return live;
}

const lowerCache = new WeakMap<Analysis, string>();

/**
 * The {@link lowerCopy} of an analysis's text, computed once per analysis (memoized, so the
 * signal detector and the human-likeness model share it).
 * @param a - the analysis
 * @returns the lowercased same-length copy
 */
export function lowerOf(a: Analysis): string {
  let lower = lowerCache.get(a);
  if (lower === undefined) {
    lower = lowerCopy(a.text);
    lowerCache.set(a, lower);
  }
  return lower;
}

// ---------------------------------------------------------------------------------------------
// ai-self-disclosure. The product never helps an agent hide that it is an AI, so an honest, plain
// answer ("Yes, I'm an AI assistant.", "I'm a bot, but I can help with that") must never fire.
// Only the canned disclaimer templates fire: "as an AI ..." used as a framing clause, "I'm just a
// language model", "I don't have personal opinions/feelings", capability disclaimers and the
// knowledge-cutoff line. Dev check: 0/817 human truthfulqa answers match, although 6 of them
// openly say they are an AI ("I'm not an animal, I'm an AI"); 41/817 ChatGPT answers match.

const AI_NOUN =
  '(?:ai|a\\.i\\.|artificial intelligence|(?:ai |large )?language model(?: ai)?|llm|ai (?:model|assistant|chatbot|system)|chatbot|virtual assistant|machine learning model)';
const AI_WORDS = ['ai', 'a.i.', 'intelligence', 'model', 'llm', 'chatbot', 'assistant'];
const SELF_DISCLOSURE: readonly GuardedRule[] = indexRules([
  // "As an AI language model, I ...": a framing clause, so it must open a sentence or follow a
  // connective, and an "I" or a comma must follow; "treat it as an AI tool" stays quiet.
  {
    re: new RegExp(
      `(?<=^|[.!?,;:\\n]\\s*|\\b(?:but|and|so|yes|no|well|however|though|although)\\s+)(?:as|being) an? ${AI_NOUN}\\b(?=[^.!?\\n]{0,60}?(?:,|\\bi\\b))`,
      'g',
    ),
    triggers: ['as', 'being'],
    alsoTriggers: AI_WORDS,
  },
  {
    re: new RegExp(`\\bi(?:'m| am) (?:just|only|merely|simply) (?:an? )?(?:${AI_NOUN}|computer program|program)\\b`, 'g'),
    triggers: ['just', 'only', 'merely', 'simply'],
    alsoTriggers: [...AI_WORDS, 'program'],
  },
  {
    re: /\bi (?:do not|don't|dont|cannot|can't) (?:have|possess|hold) (?:any )?personal (?:feelings|emotions|opinions|beliefs|preferences|views|biases|desires|experiences?(?! (?:with|of|in|on|using|at|from)\b))/g,
    triggers: ['personal'],
  },
  {
    re: /\bi (?:do not|don't|dont) (?:have|possess) (?:the )?(?:ability|capability|capacity) to (?:feel|experience|form|hold|have (?:personal|feelings|emotions|opinions|beliefs))/g,
    triggers: ['ability', 'capability', 'capacity'],
  },
  {
    re: /\bi (?:do not|don't|dont) have (?:feelings|emotions|thoughts|beliefs|consciousness)(?:,| or| and) (?:feelings|emotions|thoughts|beliefs|opinions|consciousness|self-awareness|biases)/g,
    triggers: ['feelings', 'emotions', 'thoughts', 'beliefs', 'consciousness'],
    alsoTriggers: ['have'],
  },
  { re: /\bi (?:do not|don't|dont) have (?:a physical (?:body|form|presence)|physical senses)/g, triggers: ['physical'] },
  {
    re: /\bi (?:do not|don't|dont) have (?:the ability to )?(?:access to )?(?:real-time|up-to-date) (?:information|data)/g,
    triggers: ['information', 'data'],
    alsoTriggers: ['have'],
  },
  { re: /\bas of my (?:last )?(?:knowledge (?:cutoff|update)|training (?:data|cutoff))|\bmy knowledge cutoff\b/g, triggers: ['knowledge', 'training', 'cutoff'], alsoTriggers: ['my'] },
]);

// ---------------------------------------------------------------------------------------------
// assistant-boilerplate. "start" phrases must open the reply (first two sentences, so a greeting
// may come first), "end" phrases must sit in the last two sentences, "any" anywhere.

const BOILERPLATE: readonly GuardedRule[] = indexRules([
  { re: /\b(?:certainly|absolutely)(?:!|,(?= (?:here|i|let|i'd|i'll|i'm)\b))/g, triggers: ['certainly', 'absolutely'], anchor: 'start' },
  { re: /\b(?:(?:that's|what) an? )?(?:great|excellent|fantastic|wonderful) question\b/g, triggers: ['question'], anchor: 'any' },
  { re: /\bi(?:'d| would)(?: be)? (?:happy|glad|delighted|more than happy) to (?:help|assist)\b/g, triggers: ['help', 'assist'], alsoTriggers: ['happy', 'glad', 'delighted'], anchor: 'any' },
  { re: /\bi(?:'m| am) here to (?:help|assist)\b/g, triggers: ['here'], alsoTriggers: ['help', 'assist'], anchor: 'any' },
  { re: /\bhow (?:can|may) i (?:help|assist) you(?: today)?\?/g, triggers: ['how'], alsoTriggers: ['help', 'assist'], anchor: 'any' },
  { re: /\bthank you for reaching out\b|\bthanks for reaching out\b/g, triggers: ['reaching'], anchor: 'start' },
  { re: /\b(?:i )?hope (?:this|that|my answer) (?:helps|was helpful|clarifies|answers your question)\b/g, triggers: ['hope'], anchor: 'end' },
  { re: /\bi hope you find (?:this|these|it) (?:helpful|useful)\b/g, triggers: ['hope'], anchor: 'end' },
  { re: /\bfeel free to (?:reach out|ask|let me know|contact|get in touch)\b/g, triggers: ['free'], anchor: 'any' },
  { re: /\b(?:don't|do not) hesitate to (?:reach out|ask|contact|let me know)\b/g, triggers: ['hesitate'], anchor: 'any' },
  {
    re: /\blet me know if you (?:have|need) (?:any )?(?:other|more|further|additional) (?:questions|help|assistance)\b/g,
    triggers: ['know'],
    alsoTriggers: ['questions', 'help', 'assistance'],
    anchor: 'any',
  },
  { re: /\bif you have any (?:other|more|further|additional) questions\b/g, triggers: ['questions'], anchor: 'end' },
  { re: /\bis there anything else (?:i can (?:help|assist) you with|you(?:'d| would) like)\b/g, triggers: ['anything'], anchor: 'end' },
  // Customer-service stock phrases (a polished support reply built from them read as 99.8
  // human). Canned empathy and thanks, not the plain "sorry" or "thanks" people write.
  {
    re: /\bi (?:completely |totally |fully |truly )?understand (?:how (?:frustrating|stressful|difficult|upsetting|concerning|disappointing|inconvenient|overwhelming)|your (?:frustration|concern|concerns|disappointment))\b/g,
    triggers: ['understand'],
    anchor: 'any',
  },
  { re: /\bthank you (?:so much )?for your (?:patience|understanding|cooperation)(?: and (?:understanding|cooperation|patience))?\b/g, triggers: ['patience', 'understanding', 'cooperation'], anchor: 'any' },
  { re: /\b(?:i|we) (?:sincerely )?apologi[sz]e for (?:any|the) (?:inconvenience|confusion|frustration)\b/g, triggers: ['inconvenience', 'confusion', 'frustration'], anchor: 'any' },
  { re: /\brest assured\b/g, triggers: ['assured'], anchor: 'any' },
  { re: /\bi (?:truly |really )?appreciate your (?:patience|understanding)\b/g, triggers: ['patience', 'understanding'], alsoTriggers: ['appreciate'], anchor: 'any' },
  // Canned refusal opener. Dev check: "i'm sorry, but" 0/817 human vs 20/817 ChatGPT truthfulqa.
  {
    re: /\bi(?:'m| am) sorry,? but (?:as an|i (?:cannot|can't|am unable to|am not able to|don't have (?:access|information|the ability)))/g,
    triggers: ['sorry'],
    anchor: 'start',
  },
]);

// ---------------------------------------------------------------------------------------------
// signposting. Sentence-initial connectives only count at a sentence start. "However," is left out:
// dev check 30/600 human fastdetect texts open a sentence with it (writing 6, xsum 24).

const SIGNPOSTS: readonly GuardedRule[] = indexRules([
  {
    re: /\bit(?:'s| is) (?:worth (?:noting|mentioning|pointing out)|important to (?:note|remember|consider|understand|recognize|keep in mind)|essential to (?:note|remember|consider|understand)|crucial to (?:note|remember|understand))\b/g,
    triggers: ['worth', 'important', 'essential', 'crucial'],
    anchor: 'any',
  },
  {
    re: /\b(?:in summary|in conclusion|to sum up|to summarize|all in all|that being said|with that said)\b/g,
    triggers: ['summary', 'conclusion', 'sum', 'summarize', 'all', 'said'],
    anchor: 'any',
  },
  {
    re: /\b(?:overall|ultimately|additionally|furthermore|moreover|importantly|notably),/g,
    triggers: ['overall', 'ultimately', 'additionally', 'furthermore', 'moreover', 'importantly', 'notably'],
    anchor: 'any',
  },
  { re: /\bin today's (?:fast-paced|digital|modern|ever-changing|rapidly changing) world\b/g, triggers: ['today', "today's"], anchor: 'any' },
  { re: /\bremember,/g, triggers: ['remember'], anchor: 'end' },
]);
/** Signposts that only count at a sentence start (index into SIGNPOSTS). */
const SENTENCE_INITIAL_SIGNPOSTS = new Set([2, 4]);

// ---------------------------------------------------------------------------------------------
// generic-caveat: stock hedges ChatGPT wraps around answers. Dev check: 0/817 human vs 85/817
// ChatGPT truthfulqa answers; 0/600 human and 0/600 AI fastdetect texts (stories and news have
// no answer to hedge).

const CAVEATS: readonly GuardedRule[] = indexRules([
  {
    re: /\bit(?:'s| is) (?:difficult|hard|impossible) to (?:say|determine|predict|know for (?:sure|certain)|make (?:a )?(?:generalizations?|definitive))/g,
    triggers: ['difficult', 'hard', 'impossible'],
  },
  { re: /\bdepends? on (?:various|many|several|a variety of|a number of|multiple) factors\b/g, triggers: ['factors'] },
  {
    re: /\bthere(?:'s| is) no (?:one-size-fits-all|one|single|definitive|simple|clear-cut)(?: definitive)? (?:answer|solution|way|approach)\b/g,
    triggers: ['answer', 'solution', 'way', 'approach'],
    alsoTriggers: ['no'],
  },
  { re: /\bit(?:'s| is) always (?:best|a good idea|wise|advisable) to\b/g, triggers: ['always'] },
  {
    re: /\bconsult (?:with )?(?:a |your )?(?:doctor|healthcare (?:professional|provider)|medical professional|qualified (?:professional|expert)|professional|lawyer|legal professional)\b/g,
    triggers: ['consult'],
  },
  { re: /\bvar(?:y|ies) (?:greatly |widely |significantly |considerably )?depending on\b/g, triggers: ['depending'] },
  { re: /\b(?:is|are) (?:highly |largely |ultimately )?subjective\b/g, triggers: ['subjective'] },
]);

// ---------------------------------------------------------------------------------------------
// excess-vocab. Tier 1: words with the strongest published excess ratios (Kobak et al. 2025
// excess style words, Liang et al. 2024 review adjectives, Juzek & Ward 2025 focal words), with
// their inflections. Tier 2: stock literary and news-writing words and phrases of chat models,
// each kept only if at most 1 in 10 of its dev-data occurrences is on the human side ("bolster"
// 2/4 and "camaraderie" 2/3 were dropped). Dev check over all 3,268 dev texts: 13 human vs 856
// AI hits in total; the signal fires on 0/600 human vs 130/600 AI fastdetect texts. Plain words
// ("significant", "ensure", "crucial", "journey", "hope") are deliberately absent: learners of
// English are taught them, and plain vocabulary is never penalised.

function forms(list: string): string[] {
  return list.split(/\s+/).filter(Boolean);
}

const TIER1 = forms(
  `delve delves delved delving showcase showcases showcased showcasing underscore underscores underscored
  underscoring intricate intricately intricacies meticulous meticulously commendable realm realms pivotal tapestry
  tapestries multifaceted testament garner garners garnered garnering boasts boasting elucidate elucidates elucidated
  elucidating groundbreaking noteworthy invaluable surpass surpasses surpassed surpassing unwavering unwaveringly
  palpable interplay seamless seamlessly holistic paramount nuanced transformative embark embarks embarked embarking
  beacon beacons resonate resonates resonated resonating versatile`,
);

const TIER2 = forms(
  `amidst solace newfound captivating captivated enchanting ethereal symphony labyrinth labyrinthine cacophony
  kaleidoscope tranquil tranquility tranquillity serenity glimmer glimmers unspoken sanctuary fleeting cherish
  cherished mesmerizing mesmerising unparalleled unyielding indomitable illuminating marveled marvelled intertwined
  intertwine intertwining enigmatic adorned grappling grapple vibrant profound resilience renowned immense
  tirelessly bolstered bolstering fostering streamline streamlined harnessing leveraging encompass encompasses
  encompassing underpinning spearheaded spearheading ever-evolving ever-changing indelible unbeknownst`,
);

/** Tier of each listed word (tier 1 wins), one lookup per token. */
const TIER_OF = new Map<string, 1 | 2>([...TIER2.map((w) => [w, 2] as const), ...TIER1.map((w) => [w, 1] as const)]);
/** The tier of a listed word, 0 for the rest. */
const vocabTier = wordFact((norm: string): 0 | 1 | 2 => TIER_OF.get(norm) ?? 0);

const VOCAB_PHRASES: readonly GuardedRule[] = indexRules([
  { re: /\ba (?:stark|poignant|sobering|powerful|painful|constant|timely|gentle) reminder\b/g, triggers: ['reminder'] },
  { re: /\bserv(?:e|es|ed|ing) as a (?:reminder|testament|beacon|catalyst)\b/g, triggers: ['reminder', 'testament', 'beacon', 'catalyst'] },
  { re: /\bstark contrast\b/g, triggers: ['contrast'] },
  { re: /\bshed(?:s|ding)? (?:some )?light on\b/g, triggers: ['light'] },
  { re: /\bpav(?:e|es|ed|ing) the way\b/g, triggers: ['way'], alsoTriggers: ['pave', 'paves', 'paved', 'paving'] },
  { re: /\bplay(?:s|ed|ing)? a (?:crucial|pivotal|vital) role\b/g, triggers: ['role'] },
  { re: /\bnavigat(?:e|es|ed|ing) the complexities\b/g, triggers: ['complexities'] },
  { re: /\blittle did (?:he|she|they|i|we|you) know\b/g, triggers: ['little'], alsoTriggers: ['did'] },
  { re: /\bin a world where\b/g, triggers: ['world'], alsoTriggers: ['where'] },
  { re: /\bsent shivers down\b/g, triggers: ['shivers'] },
]);

/** A located excess-vocabulary hit; tier 1 counts 1, tier 2 counts 0.5 toward density. */
export interface VocabHit {
  tier: 1 | 2;
  start: number;
  end: number;
}

const vocabCache = new WeakMap<Analysis, VocabHit[]>();

/**
 * Finds the LLM-overused style words and phrases in a text, in text order (memoized per analysis).
 * @param a - the analysis
 * @returns the hits with their tier
 */
export function findExcessVocab(a: Analysis): VocabHit[] {
  const cached = vocabCache.get(a);
  if (cached) return cached;
  const lower = lowerOf(a);
  const hits: VocabHit[] = [];
  for (const t of a.tokens) {
    if (t.kind !== 'word') continue;
    const tier = vocabTier(t.word);
    if (tier !== 0) hits.push({ tier, start: t.start, end: t.end });
  }
  const live = candidates(a);
  for (const rule of VOCAB_PHRASES) {
    if (!live[rule.slot]) continue;
    for (const [start, end] of allMatches(rule.re, lower)) {
      // A phrase that contains a listed word counts once, as the phrase.
      if (hits.some((h) => h.start < end && h.end > start)) continue;
      hits.push({ tier: 2, start, end });
    }
  }
  hits.sort((x, y) => x.start - y.start);
  vocabCache.set(a, hits);
  return hits;
}

// ---------------------------------------------------------------------------------------------
// Contractions. Wink splits "don't" into "do" + "n't" and "it's" into "it" + "'s", but keeps
// "I'm" and "here's" whole; apostrophe-less chat spellings ("dont", "im") count as contracted.

const CONTRACTED_SUFFIX = new Set(["n't", "'m", "'re", "'ve", "'ll", "'d"]);
/** Words before which "'s" is "is" or "has" rather than a possessive. */
const S_HOSTS = new Set(
  forms(`it that there here he she what who where when how why let everyone everything nothing something someone somebody
  nobody this`),
);
const BARE_CONTRACTIONS = new Set(
  forms(`dont doesnt didnt isnt arent wasnt werent cant couldnt wouldnt shouldnt wont havent hasnt hadnt im ive youre
  theyre thats whats theres`),
);
// How a word token takes part in a contraction, from its norm alone: a form, whether the span
// starts at the host before it, and whether it is itself a host of a verb "'s".
const AFTER_ANY = 1;
const AFTER_S_HOST = 2;
const WHOLE = 3;
const FORM = 3;
const WITH_HOST = 4;
const S_HOST = 8;
const contractionForm = wordFact((n: string): number => {
  const apos = n.indexOf("'");
  let form = 0;
  if (CONTRACTED_SUFFIX.has(n)) form = AFTER_ANY;
  else if (n === "'s") form = AFTER_S_HOST;
  else if (apos > 0) {
    const suffix = n.slice(apos);
    if (CONTRACTED_SUFFIX.has(suffix) || n.endsWith("n't") || (suffix === "'s" && S_HOSTS.has(n.slice(0, apos)))) form = WHOLE;
  } else if (BARE_CONTRACTIONS.has(n)) form = WHOLE;
  return form | (apos === 0 || n === "n't" ? WITH_HOST : 0) | (S_HOSTS.has(n) ? S_HOST : 0);
});
const EXPANDED =
  /\b(?:(?:do|does|did|is|are|was|were|have|has|had|would|could|should|will|must|need) not|cannot|i am|i will|i would|you are|you will|we are|we will|they are|they will|it is|it will|that is|there is|what is|he is|she is|let us)\b(?![,.;:!?)]|\s*$)/g;

/** Contracted and expanded forms of the common contraction pairs, with spans of each. */
export interface ContractionStats {
  contracted: Span[];
  expanded: Span[];
}

const contractionCache = new WeakMap<Analysis, ContractionStats>();

/**
 * Counts contraction opportunities (memoized per analysis). An expanded form right before
 * punctuation ("that is,", "I know what it is.") cannot be contracted, so it is not an opportunity.
 * @param a - the analysis
 * @returns spans of the contracted and the expanded forms
 */
export function countContractions(a: Analysis): ContractionStats {
  const cached = contractionCache.get(a);
  if (cached) return cached;
  const lower = lowerOf(a);
  const contracted: Span[] = [];
  const tokens = a.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind !== 'word') continue;
    const f = contractionForm(t.word);
    const form = f & FORM;
    const hit = form === WHOLE || (i > 0 && (form === AFTER_ANY || (form === AFTER_S_HOST && (contractionForm(tokens[i - 1].word) & S_HOST) !== 0)));
    if (!hit) continue;
    // A clitic token ("n't", "'s") is reported together with its host word.
    const start = f & WITH_HOST && i > 0 ? tokens[i - 1].start : t.start;
    contracted.push(spanOf(a.text, start, t.end));
  }
  const expanded: Span[] = [];
  EXPANDED.lastIndex = 0;
  for (let m = EXPANDED.exec(lower); m; m = EXPANDED.exec(lower)) expanded.push(spanOf(a.text, m.index, m.index + m[0].length));
  const stats = { contracted, expanded };
  contractionCache.set(a, stats);
  return stats;
}

// ---------------------------------------------------------------------------------------------
// markdown-structure. Single-asterisk italics are left out on purpose: in the dev data 45/300
// human Reddit stories use *word* emphasis against 2/300 model continuations, and people type
// *sigh* in chat. A list needs two items, so a lone "- Sam" sign-off is not a list. A heading is a
// short line: "# 3: what I look for..." running on for a paragraph is a hashtag-ish opener.

const MD_HEADING = /^[ \t]{0,3}#{1,6}[ \t]+(?!of\b)[^\s#][^\n]{0,80}$/gm;
const MD_BULLET = /^[ \t]*[-*+\u2022][ \t]+\S[^\n]*$/gm;
const MD_NUMBERED = /^[ \t]*\d{1,2}[.)][ \t]+\S[^\n]*$/gm;
const MD_TABLE = /^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)+\|?[ \t]*$/gm;
const MD_FENCE = /^[ \t]*(?:```|~~~)[^\n]*$/gm;
const MD_BOLD = /(\*\*|__)(?=[^\s*_])[^\n]*?[^\s*_]\1/g;

function allMatches(re: RegExp, s: string): [number, number][] {
  const out: [number, number][] = [];
  re.lastIndex = 0;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    out.push([m.index, m.index + m[0].length]);
    if (m[0].length === 0) re.lastIndex++;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// relentless-positivity: a cheap valence check in place of VADER.

const POSITIVE = new Set(
  forms(`great wonderful amazing fantastic excellent awesome love loved lovely happy glad delighted thrilled excited
  exciting beautiful perfect brilliant incredible joy joyful enjoy enjoyed fun congratulations proud grateful thankful
  appreciate appreciated positive success successful remarkable fabulous terrific superb best`),
);
const NEGATIVE_OR_HEDGE = new Set(
  forms(`not no never n't nothing nobody none but however though although yet maybe perhaps might possibly probably
  unfortunately sorry sadly bad worse worst hard difficult problem problems issue issues wrong sad hate annoying tired
  meh kinda sorta guess unsure doubt worried worry afraid fear angry upset disappointed disappointing boring awful
  terrible horrible ugh hmm idk confusing confused hurt pain sick lost fail failed failure except unless`),
);

// ---------------------------------------------------------------------------------------------

function sentenceIndexAt(a: Analysis, pos: number): number {
  const s = a.sentences;
  let lo = 0;
  let hi = s.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (s[mid].start <= pos) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found < 0 ? 0 : found;
}

/** True when only whitespace, quotes, brackets or list markers sit between pos and the previous sentence end. */
function atSentenceStart(lower: string, pos: number): boolean {
  for (let i = pos - 1; i >= 0; i--) {
    const c = lower[i];
    if (c === ' ' || c === '\t' || c === '"' || c === "'" || c === '(' || c === '*' || c === '_' || c === '\u201c') continue;
    return c === '.' || c === '!' || c === '?' || c === '\n' || c === ':';
  }
  return true;
}

function anchored(a: Analysis, pos: number, anchor: Anchor): boolean {
  if (anchor === 'any' || a.sentences.length === 0) return true;
  const k = sentenceIndexAt(a, pos);
  return anchor === 'start' ? k <= 1 : k >= a.sentences.length - 2;
}

function hit(id: string, count: number, spans: Span[], overrides: Partial<RuleMeta> = {}): SignalHit {
  const meta = RULES[id];
  // Field by field in RuleMeta's key order, as the spreads built it (a spread costs ~0.3 us).
  return {
    id,
    count,
    spans,
    severity: overrides.severity ?? meta.severity,
    saturation: overrides.saturation ?? meta.saturation,
    hardFail: overrides.hardFail ?? meta.hardFail,
    rule: overrides.rule ?? meta.rule,
    source: overrides.source ?? meta.source,
  };
}

function penalty(h: SignalHit): number {
  return h.severity * Math.min(1, h.count / h.saturation);
}

function compareHits(x: SignalHit, y: SignalHit): number {
  if (x.hardFail !== y.hardFail) return x.hardFail ? -1 : 1;
  const dp = penalty(y) - penalty(x);
  if (dp !== 0) return dp;
  const sx = x.spans.length ? x.spans[0].start : Infinity;
  const sy = y.spans.length ? y.spans[0].start : Infinity;
  if (sx !== sy) return sx < sy ? -1 : 1;
  return x.id < y.id ? -1 : x.id > y.id ? 1 : 0;
}

function ruleSpans(a: Analysis, lower: string, list: readonly GuardedRule[], sentenceInitial?: ReadonlySet<number>): Span[] {
  const spans: Span[] = [];
  const live = candidates(a);
  list.forEach((p, idx) => {
    if (!live[p.slot]) return;
    for (const [s, e] of allMatches(p.re, lower)) {
      if (!anchored(a, s, p.anchor ?? 'any')) continue;
      if (sentenceInitial?.has(idx) && !atSentenceStart(lower, s)) continue;
      // Drop the trailing comma or "!" from the evidence so the span is the phrase itself.
      const end = lower[e - 1] === ',' ? e - 1 : e;
      spans.push(spanOf(a.text, s, end));
    }
  });
  spans.sort((x, y) => x.start - y.start);
  return spans;
}

function markdownHit(a: Analysis): SignalHit | undefined {
  const text = a.text;
  const none: [number, number][] = [];
  // Lists, tables and fences need several lines; skip their scans on one-line replies.
  const multiline = text.includes('\n');
  const headings = text.includes('#') ? allMatches(MD_HEADING, text) : none;
  const bullets = multiline ? allMatches(MD_BULLET, text) : none;
  const numbered = multiline ? allMatches(MD_NUMBERED, text) : none;
  const parts: [number, number][] = [...headings];
  if (multiline) parts.push(...allMatches(MD_TABLE, text), ...allMatches(MD_FENCE, text));
  if (text.includes('**') || text.includes('__')) parts.push(...allMatches(MD_BOLD, text));
  if (bullets.length >= 2) parts.push(...bullets);
  if (numbered.length >= 2) parts.push(...numbered);
  if (parts.length === 0) return undefined;
  parts.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const spans = parts.map(([s, e]) => spanOf(text, s, e));
  // A heading in a chat reply is a hard fail.
  return headings.length
    ? hit('markdown-structure', spans.length, spans, { hardFail: true, rule: `${RULES['markdown-structure'].rule}; heading = hard fail` })
    : hit('markdown-structure', spans.length, spans);
}

function excessVocabHit(a: Analysis): SignalHit | undefined {
  const hits = findExcessVocab(a);
  if (hits.length === 0 || a.words === 0) return undefined;
  let weighted = 0;
  for (const h of hits) weighted += h.tier === 1 ? 1 : 0.5;
  // Density, not presence: one "vibrant" in a long human message is not evidence (evidence
  // from a single text is weak), so the weighted count must reach 1 and 1 per 100 words.
  if (weighted < 1 || (weighted * 100) / a.words < 1) return undefined;
  return hit(
    'excess-vocab',
    hits.length,
    hits.map((h) => spanOf(a.text, h.start, h.end)),
  );
}

function uniformSentencesHit(a: Analysis): SignalHit | undefined {
  const lens: number[] = [];
  for (const s of a.sentences) if (s.words > 0) lens.push(s.words);
  if (lens.length < 4 || !(coefficientOfVariation(lens) < 0.25)) return undefined;
  const spans: Span[] = [];
  for (const s of a.sentences) if (s.words > 0) spans.push(spanOf(a.text, s.start, s.end));
  return hit('uniform-sentences', 1, spans);
}

/**
 * Coefficient of variation (population SD over mean) of a list of positive numbers.
 * @param xs - the values
 * @returns the CV, 0 for fewer than two values or a zero mean
 */
export function coefficientOfVariation(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  let sum = 0;
  for (const x of xs) sum += x;
  const m = sum / xs.length;
  if (m === 0) return 0;
  let ss = 0;
  for (const x of xs) ss += (x - m) * (x - m);
  return Math.sqrt(ss / xs.length) / m;
}

const POSITIVE_WORD = 1;
const NEGATIVE_WORD = 2;
const valence = wordFact((norm: string): number => (POSITIVE.has(norm) ? POSITIVE_WORD : 0) | (NEGATIVE_OR_HEDGE.has(norm) ? NEGATIVE_WORD : 0));

function positivityHit(a: Analysis): SignalHit | undefined {
  let sentences = 0;
  for (const s of a.sentences) if (s.words > 0) sentences++;
  if (sentences < 3) return undefined;
  const spans: Span[] = [];
  for (const t of a.tokens) {
    if (t.kind !== 'word') continue;
    const v = valence(t.word);
    if (v & NEGATIVE_WORD) return undefined;
    if (v & POSITIVE_WORD) spans.push(spanOf(a.text, t.start, t.end));
  }
  return spans.length >= 2 ? hit('relentless-positivity', 1, spans) : undefined;
}

const allHitsCache = new WeakMap<Analysis, SignalHit[]>();

/**
 * Every signal that could fire on the analysis under some profile, sorted by {@link compareHits}
 * (memoized per analysis). The profile-gated ones (no-contractions, em-dash, length-mismatch) are
 * included whenever the text itself qualifies; {@link detectSignals} then keeps those the profile
 * context allows. compareHits is a total order on distinct ids, so filtering this sorted list gives
 * exactly the order a sort of the kept hits would (speed: scoring all 28 profiles costs one
 * detection plus 28 cheap filters).
 */
function allHits(a: Analysis): SignalHit[] {
  const cached = allHitsCache.get(a);
  if (cached) return cached;
  const text = a.text;
  const out: SignalHit[] = [];
  if (text.length > 0) {
    const lower = lowerOf(a);
    const disclosure = dropOverlaps(ruleSpans(a, lower, SELF_DISCLOSURE));
    if (disclosure.length) out.push(hit('ai-self-disclosure', disclosure.length, disclosure));
    const boilerplate = ruleSpans(a, lower, BOILERPLATE);
    if (boilerplate.length) out.push(hit('assistant-boilerplate', boilerplate.length, boilerplate));
    const markdown = markdownHit(a);
    if (markdown) out.push(markdown);
    const vocab = excessVocabHit(a);
    if (vocab) out.push(vocab);
    const uniform = uniformSentencesHit(a);
    if (uniform) out.push(uniform);
    const c = countContractions(a);
    const opportunities = c.contracted.length + c.expanded.length;
    if (opportunities >= 3 && c.contracted.length / opportunities < 0.3) out.push(hit('no-contractions', 1, c.expanded));
    const dashes: Span[] = [];
    for (let i = text.indexOf('\u2014'); i >= 0; i = text.indexOf('\u2014', i + 1)) dashes.push(spanOf(text, i, i + 1));
    if (dashes.length && dashes.length * 60 >= Math.max(1, a.words)) out.push(hit('em-dash', 1, dashes));
    const signposts = ruleSpans(a, lower, SIGNPOSTS, SENTENCE_INITIAL_SIGNPOSTS);
    if (signposts.length) out.push(hit('signposting', signposts.length, signposts));
    const caveats = ruleSpans(a, lower, CAVEATS);
    if (caveats.length) out.push(hit('generic-caveat', caveats.length, caveats));
    out.push(hit('length-mismatch', 1, [spanOf(text, 0, text.length)]));
    const positivity = positivityHit(a);
    if (positivity) out.push(positivity);
    out.sort(compareHits);
  }
  allHitsCache.set(a, out);
  return out;
}

/** Whether the profile context lets a signal that the text qualifies for fire. */
function allowed(h: SignalHit, a: Analysis, ctx: SignalContext): boolean {
  if (ctx.exemptions?.has(h.id)) return false;
  switch (h.id) {
    case 'no-contractions':
      return ctx.profileFormality !== undefined && ctx.profileFormality < 0.5;
    case 'em-dash':
      return (ctx.profileFormality ?? NEUTRAL_FORMALITY) < 0.6;
    case 'length-mismatch':
      return ctx.typicalWords !== undefined && ctx.typicalWords > 0 && a.words > 3 * ctx.typicalWords;
    default:
      return true;
  }
}

/**
 * Detects the machine-like signals in an analyzed reply. Pure and deterministic.
 * The hits are shared between calls on the same analysis (memoized), so treat them as read-only.
 * @param a - the analysis of the reply
 * @param ctx - what the profile says (formality target, typical length, exempted signal ids)
 * @returns the signals that fired, sorted by hard fail, then penalty, then first span, then id
 */
export function detectSignals(a: Analysis, ctx: SignalContext = {}): SignalHit[] {
  const out: SignalHit[] = [];
  for (const h of allHits(a)) if (allowed(h, a, ctx)) out.push(h);
  return out;
}

function dropOverlaps(spans: Span[]): Span[] {
  const out: Span[] = [];
  for (const s of spans) if (!out.length || s.start >= out[out.length - 1].end) out.push(s);
  return out;
}

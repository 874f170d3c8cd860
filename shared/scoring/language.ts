import { join } from 'node:path';

/** The part of eld's detector this module uses (eld's own types are ESM-only). */
interface Eld {
  detect(text: string): { language: string; getScores(): Record<string, number>; isReliable(): boolean };
}

/** The language the engine's lexicons, weights and advice are built for. */
export const SCORED_LANGUAGE = 'en';

/**
 * Letters below which a text's language is not judged: "ok", "lol same" or "gracias" cannot be
 * told apart reliably, so short texts are scored.
 */
export const MIN_LETTERS = 20;

/** Characters handed to the detector: enough to tell a language, and the cost stays flat (bench). */
const SAMPLE_CHARS = 400;

/**
 * How far the best language's score must lead English's before the text counts as "confidently
 * not English". eld scores mixed or slangy English ("u ok? wanna grab food l8r") as Polish by
 * 0.06; a German or Spanish reply leads English by 0.3 or more.
 */
const MARGIN_OVER_ENGLISH = 0.15;

// Fast path: a text whose words are mostly English function words is English, without the detector.
const ENGLISH_FUNCTION_WORDS = new Set(
  "the a an and or but to of in on at for with is are was were be been it its it's this that you your i i'm me my we our they them he she his her not no so if as do does did have has had can will would just what how".split(' '),
);
const FAST_PATH_SHARE = 0.3;

let detector: Eld | undefined;

/**
 * Loads eld (Nito-ELD, `small` n-gram set) once, on first need. eld publishes ES modules with an
 * "import"-only export map; Node >= 20.19 can require() an ES module, but from CommonJS only by
 * path, so the entry file is resolved from the package folders Node would search.
 */
function eld(): Eld {
  if (detector) return detector;
  for (const dir of require.resolve.paths('eld') ?? []) {
    try {
      detector = (require(join(dir, 'eld', 'src', 'entries', 'static.small.js')) as { eld: Eld }).eld;
      return detector;
    } catch (err) {
      if ((err as { code?: string }).code !== 'MODULE_NOT_FOUND') throw err;
    }
  }
  throw new Error('the "eld" package is not installed; run npm install');
}

/**
 * Loads the language detector now rather than on the first text that needs it: a process or
 * scoring thread that will judge languages calls it at start, so that text's request does not pay
 * the load (a few hundred milliseconds of CPU here).
 */
export function loadLanguageDetector(): void {
  eld();
}

/**
 * Tells whether a text is confidently written in a language other than English. Short texts,
 * English-looking texts and close calls are not (they are scored); eld must call its answer
 * reliable and lead English's score by a clear margin.
 * @param text - the reply
 * @returns the ISO 639-1 code of the language when confidently not English, else undefined
 */
export function unsupportedLanguageOf(text: string): string | undefined {
  const sample = text.length > SAMPLE_CHARS ? text.slice(0, SAMPLE_CHARS) : text;
  const words = sample.toLowerCase().match(/\p{L}[\p{L}'’]*/gu) ?? [];
  let letters = 0;
  let english = 0;
  for (const w of words) {
    letters += w.length;
    if (ENGLISH_FUNCTION_WORDS.has(w.replace('’', "'"))) english++;
  }
  if (letters < MIN_LETTERS) return undefined;
  if (words.length >= 4 && english / words.length >= FAST_PATH_SHARE) return undefined;
  const result = eld().detect(sample);
  if (result.language === '' || result.language === SCORED_LANGUAGE || !result.isReliable()) return undefined;
  const scores = result.getScores();
  const lead = (scores[result.language] ?? 0) - (scores[SCORED_LANGUAGE] ?? 0);
  return lead >= MARGIN_OVER_ENGLISH ? result.language : undefined;
}

const LANGUAGE_NAMES = new Intl.DisplayNames(['en'], { type: 'language' });

/**
 * The one sentence every surface (API, CLI, thread) gives when it refuses a text's language.
 * @param code - ISO 639-1 code from {@link unsupportedLanguageOf}
 * @returns the message
 */
export function unsupportedLanguageMessage(code: string): string {
  let name = code;
  try {
    name = LANGUAGE_NAMES.of(code) ?? code;
  } catch {
    // An unknown code keeps its code as the name.
  }
  return `The text reads as ${name} (${code}); the engine scores English only, so it was not scored.`;
}

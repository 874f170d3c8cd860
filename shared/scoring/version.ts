import { createHash } from 'node:crypto';
import { PROFILES } from '../profiles';
import * as empathyLexicon from './lexicons/empathy';
import * as hesitationLexicon from './lexicons/hesitation';
import directness from './weights/directness.json';
import empathy from './weights/empathy.json';
import formality from './weights/formality.json';
import hesitation from './weights/hesitation.json';
import humanLikeness from './weights/human-likeness.json';

/** Bump on any change to formulas, rules or code-held word lists; the hash tracks the data files. */
export const ENGINE_VERSION = '1.6.1';

const DATA: unknown[] = [PROFILES, directness, empathy, formality, hesitation, humanLikeness, empathyLexicon, hesitationLexicon];

// Object keys sorted, and the module markers left out: an `import * as` namespace lists its exports
// sorted under ESM (tsx) but in declaration order, with `__esModule`, under CommonJS (dist), and
// the version must not depend on how the code was loaded.
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value).filter((k) => k !== '__esModule' && k !== 'default');
  return Object.fromEntries(keys.sort().map((k) => [k, canonical((value as Record<string, unknown>)[k])]));
}

/**
 * The version every result carries: the engine version plus a short SHA-256 of the scoring data
 * (profiles, fitted weights, lexicons), so two results with the same version were computed by the
 * same formulas and data.
 */
export const SCORER_VERSION = `${ENGINE_VERSION}+${createHash('sha256').update(JSON.stringify(canonical(DATA))).digest('hex').slice(0, 12)}`;

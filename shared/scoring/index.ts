export { scoreText, scoreWeaknessMap } from './engine';
export { ScoringInputError } from './errors';
export { SCORER_VERSION } from './version';
export { SCORED_LANGUAGE, loadLanguageDetector, unsupportedLanguageMessage, unsupportedLanguageOf } from './language';
export { MAX_TEXT_CHARS, MAX_DELAY_SECONDS } from './limits';
export type * from './result-types';
export type { DimensionId } from './measure-types';
export type { Span } from './types';

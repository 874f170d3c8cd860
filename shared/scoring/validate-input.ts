import { findProfile } from '../profiles';
import { ScoringInputError } from './errors';
import { unsupportedLanguageMessage, unsupportedLanguageOf } from './language';
import { MAX_DELAY_SECONDS, MAX_TEXT_CHARS } from './limits';
import type { ScoreInput } from './result-types';

/**
 * Checks a score input before any work, so bad input fails fast with one clear reason.
 * @param input - the request
 * @throws ScoringInputError empty_text, text_too_long, invalid_text, unsupported_language, invalid_delay, unknown_profile, invalid_incoming, invalid_role
 */
export function validateScoreInput(input: ScoreInput): void {
  if (typeof input.text !== 'string') throw new ScoringInputError('invalid_text', 'text', 'text must be a string');
  if (input.text.trim() === '') throw new ScoringInputError('empty_text', 'text', 'text is empty; there is nothing to score');
  if (input.text.length > MAX_TEXT_CHARS) {
    throw new ScoringInputError('text_too_long', 'text', `text is ${input.text.length} characters; the limit is ${MAX_TEXT_CHARS}`);
  }
  // Lexicons, weights and advice are English: a confidently non-English reply is refused, never
  // scored as if it were English. Short or ambiguous texts are scored.
  const language = unsupportedLanguageOf(input.text);
  if (language !== undefined) throw new ScoringInputError('unsupported_language', 'text', unsupportedLanguageMessage(language));
  if (input.incoming !== undefined) {
    if (typeof input.incoming !== 'string') throw new ScoringInputError('invalid_incoming', 'incoming', 'incoming must be a string');
    if (input.incoming.length > MAX_TEXT_CHARS) {
      throw new ScoringInputError('incoming_too_long', 'incoming', `incoming is ${input.incoming.length} characters; the limit is ${MAX_TEXT_CHARS}`);
    }
  }
  if (input.delaySeconds !== undefined) {
    const d = input.delaySeconds;
    if (typeof d !== 'number' || !Number.isFinite(d) || d < 0 || d > MAX_DELAY_SECONDS) {
      throw new ScoringInputError('invalid_delay', 'delaySeconds', `delay must be a number of seconds between 0 and ${MAX_DELAY_SECONDS}`);
    }
  }
  if (input.role !== undefined && input.role !== 'helper' && input.role !== 'asker') {
    throw new ScoringInputError('invalid_role', 'role', 'role must be "helper" or "asker"');
  }
  if (input.profile !== undefined && input.profile !== 'all' && !findProfile(input.profile)) {
    throw new ScoringInputError('unknown_profile', 'profile', `unknown profile "${String(input.profile)}"; list them with "humanlike profiles"`);
  }
}

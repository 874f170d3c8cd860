/**
 * Input the engine cannot score. Carries a stable snake_case code and the offending field so the
 * API can answer 422 and the CLI can print one clear line; the engine itself never does I/O.
 */
export class ScoringInputError extends Error {
  readonly code: string;
  readonly field: string;

  constructor(code: string, field: string, message: string) {
    super(message);
    this.name = 'ScoringInputError';
    this.code = code;
    this.field = field;
    Object.setPrototypeOf(this, ScoringInputError.prototype);
  }
}

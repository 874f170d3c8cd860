import Ajv, { type ErrorObject, type SchemaValidateFunction, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FieldProblem } from '../../shared/errors';
import { SCORED_LANGUAGE, unsupportedLanguageMessage, unsupportedLanguageOf } from '../../shared/scoring';

// Bodies: no coercion (a string "true" is not a boolean). Lengths count code points, as JSON Schema
// says; the scorer's own limit is in UTF-16 code units and answers 422 text_too_long beyond it.
const bodyAjv = new Ajv({ allErrors: true, strict: true });
addFormats(bodyAjv);

/**
 * `x-scored-language: "en"` on a text field: the text must not be confidently in another language
 * (the engine's own rule, shared/scoring/language.ts). It sits in the body schema so every scoring
 * route refuses such a text at validation, before any payment or free round is taken.
 */
export const SCORED_LANGUAGE_KEYWORD = 'x-scored-language';

/** The field rule (and error code) of a refused language. */
export const UNSUPPORTED_LANGUAGE = 'unsupported_language';

const scoredLanguage: SchemaValidateFunction = (_schema: unknown, data: unknown) => {
  const language = typeof data === 'string' ? unsupportedLanguageOf(data) : undefined;
  if (language === undefined) return true;
  scoredLanguage.errors = [{ keyword: SCORED_LANGUAGE_KEYWORD, message: unsupportedLanguageMessage(language), params: { language } }];
  return false;
};
bodyAjv.addKeyword({ keyword: SCORED_LANGUAGE_KEYWORD, type: 'string', schemaType: 'string', metaSchema: { const: SCORED_LANGUAGE }, errors: true, validate: scoredLanguage });

// Query strings are text: coerce to the declared types and apply defaults.
const queryAjv = new Ajv({ allErrors: true, strict: true, coerceTypes: true, useDefaults: true });
addFormats(queryAjv);

/**
 * Compiles a request-body schema once.
 * @param schema - JSON schema (also published in the OpenAPI document)
 * @returns the validator
 */
export function compileBodySchema<T>(schema: object): ValidateFunction<T> {
  return bodyAjv.compile<T>(schema);
}

/**
 * Compiles a query-string schema once (coercing, with defaults).
 * @param schema - JSON schema of the query object
 * @returns the validator
 */
export function compileQuerySchema<T>(schema: object): ValidateFunction<T> {
  return queryAjv.compile<T>(schema);
}

/**
 * Turns ajv errors into one entry per failing field, addressed by JSON pointer.
 * @param errors - ajv's errors (allErrors mode)
 * @returns the failing fields, without duplicates
 */
export function toFieldProblems(errors: ErrorObject[] | null | undefined): FieldProblem[] {
  const seen = new Set<string>();
  const out: FieldProblem[] = [];
  for (const e of errors ?? []) {
    let path = e.instancePath;
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'required') {
      path = `${path}/${String(e.params.missingProperty)}`;
      message = 'is required';
    } else if (e.keyword === 'additionalProperties') {
      path = `${path}/${String(e.params.additionalProperty)}`;
      message = 'is not an accepted field';
    } else if (e.keyword === 'const') {
      message = `must be ${JSON.stringify(e.params.allowedValue)}`;
    } else if (e.keyword === SCORED_LANGUAGE_KEYWORD) {
      out.push({ path, rule: UNSUPPORTED_LANGUAGE, message });
      continue;
    } else if (e.keyword === 'enum') {
      const allowed = e.params.allowedValues as unknown[];
      message = allowed.length <= 8 ? `must be one of ${allowed.join(', ')}` : `must be one of the ${allowed.length} allowed values`;
    }
    const key = `${path}\u0000${e.keyword}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ path, rule: e.keyword, message });
  }
  return out;
}

import Ajv, { type ErrorObject, type SchemaValidateFunction, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
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
 * The TypeScript type of a body its schema accepted, derived from the schema itself (declared
 * `as const`), so a field is written once. Bodies get no defaults from their validator, so a field
 * with a `default` may still be absent: the route or product applies it.
 */
export type BodyOf<S extends JSONSchema> = FromSchema<S, { keepDefaultedPropertiesOptional: true }>;

/** The type of a query its schema accepted: coerced, and every parameter with a `default` present. */
export type QueryOf<S extends JSONSchema> = FromSchema<S>;

/** The field rule of a string PostgreSQL cannot store or that is not well-formed UTF-16. */
export const STORABLE_TEXT = 'storable_text';

const STORABLE_TEXT_MESSAGE = 'must not contain U+0000 (NUL) or an unpaired surrogate';

/**
 * Every string in a value (member names included) that could not be stored or hashed as text:
 * U+0000, which PostgreSQL's text type refuses, and ill-formed UTF-16 (a lone surrogate), which
 * has no UTF-8 form. One rule for every field of every request, whatever its schema says.
 * @param value - a request body, a query object or tool arguments
 * @param path - the JSON pointer of `value`
 * @returns one ajv error per offending string
 */
export function unstorableStrings(value: unknown, path = ''): ErrorObject[] {
  const refuse = (at: string): ErrorObject => ({ keyword: STORABLE_TEXT, instancePath: at, schemaPath: '', params: {}, message: STORABLE_TEXT_MESSAGE });
  if (typeof value === 'string') return storable(value) ? [] : [refuse(path)];
  if (value === null || typeof value !== 'object') return [];
  const out: ErrorObject[] = [];
  for (const [key, member] of Object.entries(value)) {
    const at = `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (!storable(key)) out.push(refuse(at));
    else out.push(...unstorableStrings(member, at));
  }
  return out;
}

// NUL, a high surrogate with no low one after it, or a low surrogate with no high one before it.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const storable = (text: string) => !UNSTORABLE.test(text);

// The validator ajv compiled, with the storable-text rule run first: a string that fails it fails
// the whole value, before any keyword of the schema (a language check, a pattern) looks at it.
function withStorableText<T>(validate: ValidateFunction<T>): ValidateFunction<T> {
  const checked = ((data: unknown) => {
    const unstorable = unstorableStrings(data);
    const valid = unstorable.length === 0 && validate(data);
    checked.errors = unstorable.length > 0 ? unstorable : validate.errors;
    return valid;
  }) as ValidateFunction<T>;
  return Object.assign(checked, { schema: validate.schema, schemaEnv: validate.schemaEnv });
}

/**
 * Compiles a request-body schema once. Besides the schema, every string of the body must be
 * storable text ({@link unstorableStrings}).
 * @param schema - JSON schema (also published in the OpenAPI document)
 * @returns the validator
 */
export function compileBodySchema<T>(schema: object): ValidateFunction<T> {
  return withStorableText(bodyAjv.compile<T>(schema));
}

/**
 * Compiles a query-string schema once (coercing, with defaults), with the storable-text rule.
 * @param schema - JSON schema of the query object
 * @returns the validator
 */
export function compileQuerySchema<T>(schema: object): ValidateFunction<T> {
  return withStorableText(queryAjv.compile<T>(schema));
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

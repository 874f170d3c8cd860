import type { Next } from 'koa';
import { AppError, ValidationError, type FieldProblem } from '../../shared/errors';
import type { AppContext } from './context';
import { UNSUPPORTED_LANGUAGE, compileBodySchema, compileQuerySchema, toFieldProblems } from './ajv';

/**
 * Validates the JSON body against a schema compiled once, here. A failure is a 422 listing every
 * failing field with its JSON path; a body sent with another Content-Type is a 415.
 * The valid body is put on `ctx.state.body`.
 * @param schema - JSON schema of the body (the same object the OpenAPI document publishes)
 * @param options - `refine` picks a more specific code and message from the failing fields
 * @returns the middleware
 */
export function validateBody(
  schema: object,
  options: { refine?: (fields: FieldProblem[]) => { code: string; message: string } | undefined } = {},
) {
  const validate = compileBodySchema(schema);
  return async function validateRequestBody(ctx: AppContext, next: Next): Promise<void> {
    const hasBody = Number(ctx.get('content-length') || 0) > 0 || ctx.get('transfer-encoding') !== '';
    if (hasBody && !ctx.is('application/json', '+json')) {
      throw new AppError(415, 'unsupported_media_type', 'Send the body as JSON with Content-Type: application/json.', {
        details: { expected: 'application/json', received: ctx.get('content-type') || null },
      });
    }
    const body: unknown = ctx.request.body ?? {};
    if (!validate(body)) {
      const fields = toFieldProblems(validate.errors);
      // A refused language is its own, stable code; other failures keep validation_failed.
      const language = fields.every((f) => f.rule === UNSUPPORTED_LANGUAGE) ? { code: UNSUPPORTED_LANGUAGE, message: fields[0].message } : undefined;
      const refined = language ?? options.refine?.(fields);
      throw new ValidationError(fields, refined?.message, refined?.code);
    }
    ctx.state.body = body;
    await next();
  };
}

/**
 * Validates and coerces the query string against a schema compiled once; defaults are applied.
 * A failure is a 422 listing every failing parameter. The result is put on `ctx.state.query`.
 * @param schema - JSON schema of the query object
 * @returns the middleware
 */
export function validateQuery(schema: object) {
  const validate = compileQuerySchema(schema);
  return async function validateRequestQuery(ctx: AppContext, next: Next): Promise<void> {
    const query: Record<string, unknown> = { ...ctx.query };
    if (!validate(query)) throw new ValidationError(toFieldProblems(validate.errors), 'The query string is not valid; see details.fields.');
    ctx.state.query = query;
    await next();
  };
}

/** One response of an operation in the OpenAPI document. */
export interface ResponseSpec {
  description: string;
  schema?: object;
  /** The media type of `schema` (default `application/json`). */
  mediaType?: string;
  /** Other media types the same status may answer with (e.g. a Markdown rendering chosen by a query). */
  alternatives?: ReadonlyArray<{ mediaType: string; schema: object }>;
  headers?: Record<string, { description: string; schema: object }>;
}

/** One operation: the route table and the OpenAPI document read the same specs and schemas. */
export interface OperationSpec {
  method: 'get' | 'post' | 'patch' | 'delete';
  /** Path in OpenAPI form (`{param}`). */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /** JSON schema of the JSON body; the same object `validateBody` compiles. */
  body?: object;
  /** Schemas of the path's `{name}` parameters (a string without one); every one is required. */
  pathParams?: Record<string, object>;
  /** JSON schema of the query object; each property becomes a query parameter. */
  query?: { type: 'object'; properties: Record<string, object>; required?: readonly string[] };
  /** Request headers the operation reads (payment headers, Idempotency-Key). */
  headers?: ReadonlyArray<{ name: string; description: string; schema: object; required?: boolean }>;
  responses: Record<string, ResponseSpec>;
  /** The credential the operation needs (a scheme of `SECURITY_SCHEMES`); none for public and paid operations. */
  security?: 'operatorToken' | 'adminToken';
}

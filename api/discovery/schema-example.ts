/** A JSON schema as the operation specs write them (plain objects). */
type Schema = Record<string, unknown>;

const FORMAT_EXAMPLES: Record<string, string> = {
  uuid: '00000000-0000-4000-8000-000000000000',
  'date-time': '2026-01-01T00:00:00.000Z',
  date: '2026-01-01',
  uri: 'https://example.com/',
  email: 'agent@example.com',
};

/**
 * A small example value that satisfies a schema, for the x402 Bazaar declarations (a facilitator
 * checks the example against the schema). It takes the schema's own `examples`, `default`, `const`
 * or first `enum` value, or its first `oneOf`/`anyOf` alternative; otherwise it builds one from the type: only required members of objects,
 * `minimum` for numbers, one item for arrays with `minItems`. Patterns are not solved: a string
 * schema with a pattern needs `examples` (the Bazaar test validates every example).
 * @param schema - the schema
 * @returns the example
 */
export function exampleOf(schema: Schema): unknown {
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('const' in schema) return schema.const;
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const firstOption = ([schema.oneOf, schema.anyOf].find((o) => Array.isArray(o) && o.length > 0) as Schema[] | undefined)?.[0];
  // An alternative that only adds required members of this object (`anyOf: [{required: [a]}, {required: [b]}]`) is merged in.
  if (firstOption && (schema.type === 'object' || schema.properties) && firstOption.type === undefined) {
    const { oneOf: _one, anyOf: _any, ...rest } = schema;
    return exampleOf({ ...rest, required: [...((schema.required ?? []) as string[]), ...((firstOption.required ?? []) as string[])] });
  }
  if (firstOption) return exampleOf(firstOption);
  const type = Array.isArray(schema.type) ? (schema.type as string[]).find((t) => t !== 'null') ?? 'null' : (schema.type as string | undefined);
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const required = (schema.required ?? []) as string[];
      return Object.fromEntries(required.filter((name) => properties[name]).map((name) => [name, exampleOf(properties[name])]));
    }
    case 'array': {
      const count = typeof schema.minItems === 'number' ? schema.minItems : 0;
      return Array.from({ length: count }, () => exampleOf((schema.items ?? {}) as Schema));
    }
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : 0;
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'string': {
      if (typeof schema.format === 'string' && FORMAT_EXAMPLES[schema.format]) return FORMAT_EXAMPLES[schema.format];
      const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
      return 'example'.padEnd(min, 'x');
    }
    default:
      return {};
  }
}

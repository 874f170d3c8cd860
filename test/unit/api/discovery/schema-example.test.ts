import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import { exampleOf } from '../../../../api/discovery/schema-example';
import { apiOperations } from '../../../../api/routes';
import { loadConfig } from '../../../../shared/config';

describe('exampleOf', function () {
  it('takes the schema\'s own examples, const, default or first enum value', function () {
    expect(exampleOf({ type: 'string', examples: ['a', 'b'], default: 'c' })).to.equal('a');
    expect(exampleOf({ const: 2 })).to.equal(2);
    expect(exampleOf({ type: 'string', default: 'basic', enum: ['deep', 'basic'] })).to.equal('basic');
    expect(exampleOf({ type: 'string', enum: ['x', 'y'] })).to.equal('x');
  });

  it('builds objects from their required members only', function () {
    const schema = { type: 'object', required: ['n', 's'], properties: { n: { type: 'integer', minimum: 3 }, s: { type: 'string', minLength: 10 }, optional: { type: 'boolean' } } };
    expect(exampleOf(schema)).to.deep.equal({ n: 3, s: 'examplexxx' });
  });

  it('merges the first anyOf alternative that only adds required members', function () {
    const schema = {
      type: 'object',
      required: ['a'],
      anyOf: [{ required: ['b'] }, { required: ['c'] }],
      properties: { a: { type: 'boolean' }, b: { type: 'array', minItems: 1, items: { type: 'string' } }, c: { type: 'string' } },
    };
    expect(exampleOf(schema)).to.deep.equal({ a: false, b: ['example'] });
  });

  it('fills formats and nullable types', function () {
    expect(exampleOf({ type: 'string', format: 'uuid' })).to.match(/^[0-9a-f-]{36}$/);
    expect(exampleOf({ type: ['object', 'null'] })).to.deep.equal({});
    expect(exampleOf({ type: 'null' })).to.equal(null);
  });

  it('gives a valid example for the body and the answer of every paid POST the service serves', function () {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    const paid = apiOperations(loadConfig({})).filter((op) => op.method === 'post' && op.tags.includes('paid'));
    expect(paid.length).to.be.greaterThan(5);
    for (const op of paid) {
      for (const [what, schema] of [['body', op.body], ['200', op.responses['200']?.schema]] as const) {
        if (!schema) continue;
        expect(ajv.validate(schema, exampleOf(schema as Record<string, unknown>)), `${op.path} ${what}: ${ajv.errorsText()}`).to.equal(true);
      }
    }
  });
});

describe('config: MCP_REGISTRY_AUTH', function () {
  it('takes a domain-verification record and refuses anything else', function () {
    const record = 'v=MCPv1; k=ed25519; p=MCowBQYDK2VwAyEAvP4bXbrPpLHSMFzFq0rLXj8Sdc0Ho6BNhOaqFV0M7P8=';
    expect(loadConfig({ MCP_REGISTRY_AUTH: record }).discovery.mcpRegistryAuth).to.equal(record);
    expect(loadConfig({}).discovery.mcpRegistryAuth).to.equal(undefined);
    expect(() => loadConfig({ MCP_REGISTRY_AUTH: 'v=MCPv1; k=ed25519; p=not base64!' })).to.throw(/MCP_REGISTRY_AUTH/);
  });
});

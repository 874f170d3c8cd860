import type { OperationSpec } from '../http/openapi/operation';
import { errorBodySchema } from '../http/responses.schema';
import { STARTER_KIT_FILES } from './starter-kit-files';
import { STARTER_KIT_MAX_AGE_SECONDS, STARTER_KIT_PATH } from './starter-kit.routes';

const CACHE_HEADERS = {
  'Cache-Control': { description: `public, max-age=${STARTER_KIT_MAX_AGE_SECONDS}`, schema: { type: 'string' } },
  ETag: { description: 'Strong validator; send it back in If-None-Match to get 304.', schema: { type: 'string' } },
};

const indexSchema = {
  type: 'object',
  required: ['files'],
  properties: {
    files: {
      type: 'array',
      items: {
        type: 'object',
        required: ['filename', 'url', 'media_type', 'bytes', 'description'],
        properties: {
          filename: { type: 'string' },
          url: { type: 'string', format: 'uri', description: 'Absolute, from PUBLIC_BASE_URL.' },
          media_type: { type: 'string' },
          bytes: { type: 'integer', minimum: 0 },
          description: { type: 'string' },
        },
      },
    },
  },
};

/** OpenAPI specs of the starter kit. */
export const starterKitOperations: OperationSpec[] = [
  {
    method: 'get',
    path: STARTER_KIT_PATH,
    operationId: 'getStarterKit',
    summary: 'Starter kit index: files an agent developer copies (Node x402 client, Python EIP-3009 client, MCP client config, curl examples).',
    tags: ['catalog'],
    responses: {
      '200': { description: 'The index; every url is absolute.', schema: indexSchema, headers: CACHE_HEADERS },
      '304': { description: 'Not modified (If-None-Match).' },
    },
  },
  {
    method: 'get',
    path: `${STARTER_KIT_PATH}/{filename}`,
    operationId: 'getStarterKitFile',
    summary: 'One starter kit file, verbatim, with its media type.',
    description: STARTER_KIT_FILES.map((f) => `${f.filename} (${f.type.split(';')[0]}): ${f.description}`).join(' '),
    tags: ['catalog'],
    pathParams: { filename: { type: 'string', enum: STARTER_KIT_FILES.map((f) => f.filename) } },
    responses: {
      '200': { description: 'The file (text/javascript, text/x-python, application/json or text/x-shellscript).', mediaType: 'text/plain', schema: { type: 'string' }, headers: CACHE_HEADERS },
      '304': { description: 'Not modified (If-None-Match).' },
      '404': { description: 'starter_kit_file_not_found: no such file in the kit.', schema: errorBodySchema },
    },
  },
];

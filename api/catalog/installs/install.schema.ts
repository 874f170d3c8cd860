import { OFFERINGS } from '../../../shared/catalog/offerings';
import type { BodyOf } from '../../http/ajv';

/** How long a workflow's challenge may take to be published, from the start. */
export const CHALLENGE_TTL_SECONDS = 86_400;

/** The longest site origin or page URL taken. */
export const MAX_URL_CHARS = 2048;

/** The offerings this workflow installs: those installed by pasting a snippet. */
export const SNIPPET_OFFERING_IDS = OFFERINGS.filter((o) => o.install_kind === 'snippet').map((o) => o.id);

/** A workflow id in a path. */
export const WORKFLOW_ID_SCHEMA = { type: 'string', format: 'uuid', description: 'The workflow id from POST /api/catalog/free-installs/start.' } as const;

/** Body of POST /api/catalog/free-installs/start. */
export const startInstallSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['site_origin', 'offering_id'],
  properties: {
    site_origin: {
      type: 'string',
      minLength: 1,
      maxLength: MAX_URL_CHARS,
      description: 'The site the install goes on, as an origin: http(s)://host[:port], no path, query or user name. Only ports 80 and 443 are fetched in production.',
      examples: ['https://www.example.com'],
    },
    offering_id: {
      type: 'string',
      enum: SNIPPET_OFFERING_IDS,
      description: 'The offering to install (an offering installed by a snippet, e.g. embedded-check).',
    },
  },
} as const;

/** Body of POST /api/catalog/free-installs/{workflow_id}/installation. */
export const installationSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['page_url'],
  properties: {
    page_url: {
      type: 'string',
      minLength: 1,
      maxLength: MAX_URL_CHARS,
      description: "The page of the workflow's site the snippet goes on (same origin as site_origin).",
      examples: ['https://www.example.com/support/reply'],
    },
  },
} as const;

/** Bodies the workflow's other POSTs take: none (an empty object or no body). */
export const emptyBodySchema = { type: 'object', additionalProperties: false, properties: {} } as const;

/** The proof's formats. */
export const PROOF_FORMATS = ['json', 'svg', 'html'] as const;

/** Query of GET /api/catalog/verified-installs/{workflow_id}. */
export const proofQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    format: { type: 'string', enum: PROOF_FORMATS, default: 'json', description: 'json (default), svg (a badge) or html (a page).' },
  },
} as const;

/** The body of a start, as validated. */
export type StartInstallRequest = BodyOf<typeof startInstallSchema>;

import type { OperationSpec } from '../http/openapi/operation';
import { COMMON_RESPONSES, errorBodySchema } from '../http/responses.schema';
import { configureNetworkSchema, networkConfigProcessesSchema, networkConfigSchema } from './admin.schema';

const CREDENTIAL_RESPONSES = {
  '401': { description: 'credential_required, credential_invalid, credential_expired or credential_revoked (with WWW-Authenticate).', schema: errorBodySchema },
  '403': { description: 'credential_wrong_role: an operator credential; this needs an admin credential.', schema: errorBodySchema },
  '429': { description: 'too_many_failed_credentials: too many failed credential attempts from this caller (Retry-After).', schema: errorBodySchema },
};

/** OpenAPI specs of the admin routes. */
export const adminOperations: OperationSpec[] = [
  {
    method: 'get',
    path: '/api/admin/network-config',
    operationId: 'getNetworkConfig',
    summary: 'The current runtime network configuration (admin).',
    tags: ['operators'],
    security: 'adminToken',
    responses: {
      '200': { description: 'The configuration every process applies now.', schema: networkConfigSchema },
      ...CREDENTIAL_RESPONSES,
    },
  },
  {
    method: 'get',
    path: '/api/admin/network-config/processes',
    operationId: 'getNetworkConfigProcesses',
    summary: 'Which runtime network configuration each running web and worker process holds (admin).',
    description:
      'Every process reports the configuration it holds to Redis each time it reads it (at start, on every change ' +
      'announcement, and every 30 s). A process not heard from for 90 s is taken as stopped and left out. ' +
      '`current` says whether a process holds the stored version; after a change, `all_current` turns true within a second.',
    tags: ['operators'],
    security: 'adminToken',
    responses: {
      '200': { description: 'The stored configuration and each live process\'s view.', schema: networkConfigProcessesSchema },
      ...CREDENTIAL_RESPONSES,
    },
  },
  {
    method: 'patch',
    path: '/api/admin/configure-network',
    operationId: 'configureNetwork',
    summary: 'Adjusts the base simulation fee (lamports) and the consecutive-failure suspension cap (admin).',
    description:
      'Takes effect at once in every web and worker process (each re-reads it on a Redis announcement; the quotes of ' +
      'every process reflect it within a second) and persists across restarts. Each change is audited: the admin ' +
      'credential, the time, the old and the new values.',
    tags: ['operators'],
    security: 'adminToken',
    body: configureNetworkSchema,
    responses: {
      '200': {
        description: 'Changed.',
        schema: {
          type: 'object',
          required: ['network_config', 'previous', 'audit_id'],
          properties: { network_config: networkConfigSchema, previous: networkConfigSchema, audit_id: { type: 'string' } },
        },
      },
      ...CREDENTIAL_RESPONSES,
      '422': COMMON_RESPONSES['422'],
    },
  },
];

import { NETWORK_CONFIG_BOUNDS } from '../../shared/operators/network-config';
import type { BodyOf } from '../http/ajv';

/** The body of `PATCH /api/admin/configure-network`: one or both settings, within their bounds. */
export const configureNetworkSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    simulate_base_lamports: {
      type: 'integer',
      ...NETWORK_CONFIG_BOUNDS.simulateBaseLamports,
      description: 'The base simulation fee: the legacy SOL price of a basic /api/simulate session, in lamports.',
    },
    failure_suspension_cap: {
      type: 'integer',
      ...NETWORK_CONFIG_BOUNDS.failureSuspensionCap,
      description: 'Consecutive failed sessions after which a wallet is suspended (duel failure escalation).',
    },
  },
} as const;

/** A validated configure-network body. */
export type ConfigureNetworkRequest = BodyOf<typeof configureNetworkSchema>;

/** The runtime network configuration as the API shows it. */
export const networkConfigSchema = {
  type: 'object',
  required: ['simulate_base_lamports', 'failure_suspension_cap', 'updated_at', 'updated_by'],
  properties: {
    simulate_base_lamports: { type: 'integer' },
    failure_suspension_cap: { type: 'integer' },
    updated_at: { type: ['string', 'null'], format: 'date-time', description: 'null: never changed, the defaults apply.' },
    updated_by: { type: ['string', 'null'], description: 'The id of the admin credential that made the last change.' },
  },
} as const;

/** The body of `GET /api/admin/network-config/processes`. */
export const networkConfigProcessesSchema = {
  type: 'object',
  required: ['network_config', 'processes', 'all_current'],
  properties: {
    network_config: networkConfigSchema,
    processes: {
      type: 'array',
      items: {
        type: 'object',
        required: ['instance', 'role', 'simulate_base_lamports', 'failure_suspension_cap', 'updated_at', 'reported_at', 'current'],
        properties: {
          instance: { type: 'string', description: 'role:host:pid:random, one per running cache.' },
          role: { type: 'string', enum: ['web', 'worker'] },
          simulate_base_lamports: { type: 'integer' },
          failure_suspension_cap: { type: 'integer' },
          updated_at: { type: ['string', 'null'], format: 'date-time', description: 'The version it holds (null: the defaults).' },
          reported_at: { type: 'string', format: 'date-time' },
          current: { type: 'boolean', description: 'It holds the stored version.' },
        },
      },
    },
    all_current: { type: 'boolean' },
  },
} as const;

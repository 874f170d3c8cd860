import { MAX_DELAY_SECONDS, MAX_TEXT_CHARS } from '../../shared/scoring/limits';
import { PROFILE_IDS } from '../free-score/free-score.schema';

/** A wallet: an EVM address (USDC rail) or a base58 Solana address (legacy SOL rail). */
export const WALLET_ADDRESS_SCHEMA = {
  type: 'string',
  pattern: '^(0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{32,44})$',
  description: 'The paying wallet; must be the payment signer (EVM address, or base58 Solana address for the legacy rail).',
} as const;

/** A legacy Solana transaction signature (base58 of 64 bytes). */
export const TX_HASH_SCHEMA = {
  type: 'string',
  pattern: '^[1-9A-HJ-NP-Za-km-z]{64,88}$',
  description: 'Legacy alternative to a payment header: the finalized SOL transfer signature, with wallet_address.',
} as const;

/** Body of `POST /api/simulate`. */
export interface SimulateRequest {
  wallet_address: string;
  proposed_text: string;
  response_delay_seconds: number;
  target_profile: string;
  tier?: 'basic' | 'deep';
  share_for_calibration?: boolean;
  tx_hash?: string;
  incoming_message?: string;
}

/** JSON schema of {@link SimulateRequest}; validates requests and is published in the OpenAPI document. */
export const simulateRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['wallet_address', 'proposed_text', 'response_delay_seconds', 'target_profile'],
  properties: {
    wallet_address: WALLET_ADDRESS_SCHEMA,
    proposed_text: {
      type: 'string',
      minLength: 1,
      maxLength: MAX_TEXT_CHARS,
      pattern: '\\S',
      description: `The agent's reply to score; at most ${MAX_TEXT_CHARS} characters. Never stored, unless shared for calibration and scored above 85.0.`,
    },
    response_delay_seconds: { type: 'number', minimum: 0, maximum: MAX_DELAY_SECONDS, description: 'Seconds between the incoming message and the reply.' },
    target_profile: { type: 'string', enum: PROFILE_IDS, description: 'Profile id (GET /api/profiles).' },
    tier: { type: 'string', enum: ['basic', 'deep'], default: 'basic', description: 'basic (50000 USDC units) or deep (180000).' },
    share_for_calibration: {
      type: 'boolean',
      default: false,
      description: 'Consent to keep the text for manual calibration review, only if it scores above 85.0. No discount.',
    },
    tx_hash: TX_HASH_SCHEMA,
    incoming_message: {
      type: 'string',
      maxLength: MAX_TEXT_CHARS,
      description: 'The message being answered; improves empathy, directness and timing. Never stored.',
    },
  },
} as const;

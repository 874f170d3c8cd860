import { PROFILES } from '../../shared/profiles';
import { MAX_DELAY_SECONDS, MAX_TEXT_CHARS } from '../../shared/scoring/limits';

// Schema fragments that several families' request bodies share. Each family's schema spreads
// them and adds its own description, so one rule (a pattern, a limit) is written once.

/** Ids of the 28 profiles, in their fixed order. */
export const PROFILE_IDS = PROFILES.map((p) => p.id);

/**
 * A placeholder wallet for published examples (schemas, the x402 Bazaar extension, proof cards): a
 * valid address that belongs to nobody we know of, never a payer's. The caller puts its own (the
 * payment signer) in its place.
 */
export const EXAMPLE_WALLET = '0x00000000000000000000000000000000000000A1';

/** A wallet: an EVM address (USDC rail) or a base58 Solana address (legacy SOL rail). */
export const WALLET_ADDRESS_SCHEMA = {
  type: 'string',
  pattern: '^(0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{32,44})$',
  description: 'The paying wallet; must be the payment signer (EVM address, or base58 Solana address for the legacy rail).',
  examples: [EXAMPLE_WALLET],
} as const;

/** A legacy Solana transaction signature (base58 of 64 bytes). */
export const TX_HASH_SCHEMA = {
  type: 'string',
  pattern: '^[1-9A-HJ-NP-Za-km-z]{64,88}$',
  description: 'Legacy alternative to a payment header: the finalized SOL transfer signature, with wallet_address.',
} as const;

/** The reply to score: not blank, at most the engine's limit (UTF-16 code units). */
export const PROPOSED_TEXT_SCHEMA = {
  type: 'string',
  minLength: 1,
  maxLength: MAX_TEXT_CHARS,
  pattern: '\\S',
  // Enforced by the body validator (api/http/ajv.ts): 422 unsupported_language before any payment.
  'x-scored-language': 'en',
  description: `The agent's reply to score, in English; at most ${MAX_TEXT_CHARS} characters. The engine scores English only: a reply confidently in another language is refused with 422 \`unsupported_language\` (before any payment or free round); short texts whose language cannot be told are scored.`,
} as const;

/** Seconds between the incoming message and the reply (contract: minimum 0). */
export const DELAY_SECONDS_SCHEMA = {
  type: 'number',
  minimum: 0,
  maximum: MAX_DELAY_SECONDS,
  description: 'Seconds between the incoming message and the reply.',
} as const;

/** One of the 28 profile ids. */
export const PROFILE_ID_SCHEMA = { type: 'string', enum: PROFILE_IDS, description: 'Profile id (GET /api/profiles).' } as const;

/** The message being answered: helps attunement, directness and timing; never stored. */
export const INCOMING_MESSAGE_SCHEMA = {
  type: 'string',
  maxLength: MAX_TEXT_CHARS,
  description: 'The message being answered; improves empathy, directness and timing. Never stored.',
} as const;

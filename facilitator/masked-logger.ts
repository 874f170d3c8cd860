import pino from 'pino';
import type { Logger } from '../shared/logger';
import { maskIdentifier } from '../shared/payments/mask';

// A full EVM address or anything longer (transaction hashes, nonces, signatures, calldata).
const LONG_HEX = /0x[0-9a-fA-F]{40,}/g;

function maskString(value: unknown): unknown {
  return typeof value === 'string' ? maskIdentifier(value) : value;
}

function maskHexIn(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(LONG_HEX, (hex) => maskIdentifier(hex));
  if (Array.isArray(value)) return value.map(maskHexIn);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, v]) => [key, maskHexIn(v)]));
  }
  return value;
}

/**
 * The facilitator's logger: `payer` and `transaction` fields are masked to their first 6 and last
 * 4 characters as web and worker show them, and every address or
 * hash inside a logged error (viem puts call arguments and request bodies in its messages) too.
 * Applied where the facilitator's code receives its logger, so no line of it can forget.
 * @param logger - the logger the facilitator was given
 * @returns a child logger with the masking serializers
 */
export function maskedLogger(logger: Logger): Logger {
  return logger.child(
    {},
    {
      serializers: {
        payer: maskString,
        transaction: maskString,
        err: (err: Error) => maskHexIn(pino.stdSerializers.err(err)),
      },
    },
  );
}

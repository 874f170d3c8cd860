import { randomBytes } from 'node:crypto';
import { encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { getAddress, type LocalAccount } from 'viem';
import { transferWithAuthorizationTypedData } from '../../shared/payments/eip3009';

/** What a test may change in the authorization it signs (to build each way of being wrong). */
export interface SignOptions {
  /** Overrides of the signed authorization's fields. */
  value?: string;
  to?: `0x${string}`;
  validAfter?: number;
  validBefore?: number;
  nonce?: `0x${string}`;
  /** Overrides of the EIP-712 domain the signature is made over. */
  domain?: { name?: string; version?: string; chainId?: number; verifyingContract?: `0x${string}` };
  /** Overrides of the `accepted` requirement copied into the payload. */
  accepted?: Partial<PaymentRequirements>;
  /** resource.url of the payload; null leaves it out. */
  resourceUrl?: string | null;
  /** Claim another `from` than the signer (a forged authorization). */
  from?: `0x${string}`;
}

/** A signed x402 v2 payment: the payload and its PAYMENT-SIGNATURE header value. */
export interface SignedPayment {
  payload: PaymentPayload;
  header: string;
  nonce: `0x${string}`;
}

/**
 * Signs a real EIP-3009 TransferWithAuthorization for a requirement, the way an x402 v2 client
 * does (validAfter = now - 600 s, validBefore = now + maxTimeoutSeconds, 32 random nonce bytes).
 * @param account - the payer's local account (a real private key)
 * @param requirement - the offered requirement (first entry of the 402's accepts)
 * @param resourceUrl - the paid resource's URL
 * @param options - overrides for building invalid payments
 * @returns the payload and header
 */
export async function signPayment(
  account: LocalAccount,
  requirement: PaymentRequirements,
  resourceUrl: string,
  options: SignOptions = {},
): Promise<SignedPayment> {
  const now = Math.floor(Date.now() / 1000);
  const nonce = options.nonce ?? (`0x${randomBytes(32).toString('hex')}` as const);
  const authorization = {
    from: options.from ?? account.address,
    to: options.to ?? getAddress(requirement.payTo),
    value: options.value ?? requirement.amount,
    validAfter: String(options.validAfter ?? now - 600),
    validBefore: String(options.validBefore ?? now + requirement.maxTimeoutSeconds),
    nonce,
  };
  const extra = requirement.extra as { name: string; version: string };
  const signature = await account.signTypedData(
    transferWithAuthorizationTypedData(
      {
        name: options.domain?.name ?? extra.name,
        version: options.domain?.version ?? extra.version,
        chainId: options.domain?.chainId ?? Number(requirement.network.split(':')[1]),
        asset: options.domain?.verifyingContract ?? requirement.asset,
      },
      authorization,
    ),
  );
  const payload = {
    x402Version: 2,
    ...(options.resourceUrl === null ? {} : { resource: { url: options.resourceUrl ?? resourceUrl } }),
    accepted: { ...requirement, ...options.accepted },
    payload: { signature, authorization },
  } as PaymentPayload;
  return { payload, header: encodePaymentSignatureHeader(payload), nonce };
}

/**
 * Base64 of arbitrary JSON, for malformed-header tests.
 * @param value - anything JSON-serializable
 * @returns the header value
 */
export function base64Json(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64');
}

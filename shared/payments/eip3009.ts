import { authorizationTypes } from '@x402/evm';
import { getAddress } from 'viem';

/** An EIP-3009 authorization as x402 carries it: every value a string. */
export interface Eip3009Authorization {
  from: `0x${string}`;
  to: `0x${string}`;
  value: string;
  validAfter: string;
  validBefore: string;
  nonce: `0x${string}`;
}

/** The token's EIP-712 domain as a requirement names it (`extra`), with the chain and the token. */
export interface Eip3009Domain {
  name: string;
  version: string;
  chainId: number;
  /** The token address (the requirement's `asset`). */
  asset: string;
}

/**
 * The EIP-712 typed data of `TransferWithAuthorization` that an x402 exact-EVM payment signs:
 * the one definition used to sign (clients, tests, benches) and to check (API, facilitator).
 * @param domain - token name, version, chain id and address
 * @param authorization - the authorization, values as decimal strings
 * @returns domain, types, primary type and message, ready for viem's sign/verify/recover
 */
export function transferWithAuthorizationTypedData(domain: Eip3009Domain, authorization: Eip3009Authorization) {
  return {
    domain: { name: domain.name, version: domain.version, chainId: domain.chainId, verifyingContract: getAddress(domain.asset) },
    types: authorizationTypes,
    primaryType: 'TransferWithAuthorization' as const,
    message: {
      from: authorization.from,
      to: authorization.to,
      value: BigInt(authorization.value),
      validAfter: BigInt(authorization.validAfter),
      validBefore: BigInt(authorization.validBefore),
      nonce: authorization.nonce,
    },
  };
}

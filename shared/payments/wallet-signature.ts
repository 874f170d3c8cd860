import { recover } from 'tiny-secp256k1';
import { bytesToHex, createPublicClient, hashMessage, hashTypedData, hexToBytes, http, isAddressEqual, isErc6492Signature, type Address, type Hex, type TypedDataDefinition } from 'viem';
import { publicKeyToAddress } from 'viem/accounts';
import { UnavailableError } from '../errors';

/** What a wallet signed: an EIP-191 message, or EIP-712 typed data. */
export type SignedContent = { message: string } | { typedData: TypedDataDefinition };

const EVM_RPC_TIMEOUT_MS = 8_000;
const KEY_SIGNATURE_HEX = 2 + 65 * 2;

function unavailable(err: unknown): UnavailableError {
  return new UnavailableError('evm_rpc_unavailable', 'The EVM node needed to check this smart-wallet signature cannot be read; retry later.', {
    headers: { 'Retry-After': '5' },
    cause: err,
  });
}

// The key that made a 65-byte signature (r, s, v with v 27/28 or 0/1), as viem's recovery finds
// it, but through libsecp256k1 (WebAssembly): viem's pure-JS recovery took about 1.3 ms here, a
// fifth of the web's CPU per paid call; this check, typed-data hash included, about 0.3 ms.
function recoveredSigner(content: SignedContent, signature: Hex): Address | undefined {
  try {
    const digest = 'message' in content ? hashMessage(content.message) : hashTypedData(content.typedData);
    const bytes = hexToBytes(signature);
    const v = bytes[64];
    const yParity = v === 0 || v === 27 ? 0 : v === 1 || v === 28 ? 1 : undefined;
    if (yParity === undefined) return undefined;
    const publicKey = recover(hexToBytes(digest), bytes.subarray(0, 64), yParity, false);
    return publicKey ? publicKeyToAddress(bytesToHex(publicKey)) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether `wallet` signed `content`. A 65-byte signature that recovers to the wallet is its key's
 * (an externally owned account), checked here without any I/O. Anything else can only be a smart
 * wallet's: with an EVM JSON-RPC endpoint, a wallet that has code (or a signature that deploys it,
 * ERC-6492) is asked through the chain (ERC-1271 `isValidSignature`, viem's verify actions); an
 * account without code never vouches for a signature its key did not make. Without an endpoint,
 * only keys' signatures are valid.
 * @param wallet - the claimed signer
 * @param content - the message or typed data
 * @param signature - 0x-hex signature bytes
 * @param evmRpcUrl - read-only EVM JSON-RPC endpoint of the wallet's chain; unset checks keys only
 * @returns true when the wallet signed it
 * @throws UnavailableError (503 evm_rpc_unavailable) when the chain is needed and cannot be read
 */
export async function isWalletSignature(wallet: Address, content: SignedContent, signature: Hex, evmRpcUrl?: string): Promise<boolean> {
  if (!/^0x([0-9a-fA-F]{2})+$/.test(signature)) return false;
  if (signature.length === KEY_SIGNATURE_HEX) {
    const signer = recoveredSigner(content, signature);
    if (signer && isAddressEqual(signer, wallet)) return true;
  }
  if (!evmRpcUrl) return false;
  const client = createPublicClient({ transport: http(evmRpcUrl, { timeout: EVM_RPC_TIMEOUT_MS, retryCount: 1 }) });
  // Read first, on its own: viem's verify actions answer false when the node fails, which would
  // tell a smart wallet its signature is wrong while the node is down.
  const code = await client.getCode({ address: wallet }).catch((err: unknown) => {
    throw unavailable(err);
  });
  if (!code && !isErc6492Signature(signature)) return false;
  const verified =
    'message' in content
      ? client.verifyMessage({ address: wallet, message: content.message, signature })
      : client.verifyTypedData({ ...content.typedData, address: wallet, signature });
  return verified.catch((err: unknown) => {
    throw unavailable(err);
  });
}

import {
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  type CompiledTransactionMessage,
  type ReadonlyUint8Array,
  type SignaturesMap,
} from '@solana/kit';

/** A wire transaction split into what was signed, the signatures, and the compiled message. */
export interface DecodedWireTransaction {
  /** The exact bytes every signer signed. */
  readonly messageBytes: ReadonlyUint8Array;
  /** Signer address to 64-byte signature (null when missing), in header order: the fee payer first. */
  readonly signatures: SignaturesMap;
  /** The message decoded from those bytes: header, static accounts, instructions, lookups. */
  readonly message: CompiledTransactionMessage;
}

/**
 * Decodes a base64 wire transaction (what `getTransaction` returns with `encoding: 'base64'`)
 * with @solana/kit's codecs. Nothing is trusted yet: the caller checks signatures and contents.
 * @param base64 - the wire transaction, standard base64
 * @returns the signed bytes, the signatures and the compiled message
 * @throws SolanaError or RangeError from the codecs when the bytes are not a transaction
 */
export function decodeWireTransaction(base64: string): DecodedWireTransaction {
  const transaction = getTransactionDecoder().decode(getBase64Encoder().encode(base64));
  const message = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
  return { messageBytes: transaction.messageBytes, signatures: transaction.signatures, message };
}

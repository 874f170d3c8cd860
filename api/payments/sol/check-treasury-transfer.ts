import {
  getBase58Decoder,
  getPublicKeyFromAddress,
  verifySignature,
  type Address,
  type ReadonlyUint8Array,
  type Signature,
  type SignatureBytes,
} from '@solana/kit';
import {
  getTransferSolInstructionDataDecoder,
  identifySystemInstruction,
  SystemInstruction,
  SYSTEM_PROGRAM_ADDRESS,
} from '@solana-program/system';
import type { DecodedWireTransaction } from './decode-wire-transaction';
import { refuse, type SolTransferRefusal } from './sol-transfer-verification';

/** What the payment proof and the price say the transaction must show. */
export interface TreasuryTransferExpectation {
  /** The claimed transaction id. */
  readonly signature: Signature;
  /** The claimed payer. */
  readonly payer: Address;
  /** Our receiving address. */
  readonly treasury: Address;
  /** The price in lamports. */
  readonly minLamports: bigint;
}

/** The offline verdict: the lamports paid to the treasury, or a refusal. */
export type TreasuryTransferCheck = { readonly ok: true; readonly lamports: bigint } | SolTransferRefusal;

async function signedBy(signer: Address, signature: SignatureBytes, messageBytes: ReadonlyUint8Array): Promise<boolean> {
  try {
    return await verifySignature(await getPublicKeyFromAddress(signer), signature, messageBytes);
  } catch {
    // WebCrypto refuses some 32-byte strings as Ed25519 keys; such a key signed nothing.
    return false;
  }
}

// The amount of a System Program TransferSol, or null for any other System instruction.
function transferSolAmount(data: ReadonlyUint8Array | undefined): bigint | null {
  if (!data) return null;
  try {
    if (identifySystemInstruction(data) !== SystemInstruction.TransferSol) return null;
    return getTransferSolInstructionDataDecoder().decode(data).amount;
  } catch {
    // Unknown discriminator or short data: the System Program would have failed the transaction.
    return null;
  }
}

/**
 * Checks a decoded transaction against a payment proof, offline: the claimed signature is the
 * transaction id, it verifies (Ed25519) over the message bytes under the fee payer's key, the fee
 * payer is the claimed payer, and top-level System Program `TransferSol` instructions from the
 * payer to the treasury add up to at least the price. Only signed bytes are used, so a node
 * cannot inflate the amount; whether the transaction succeeded comes from the node's `meta`.
 * Inner (CPI) transfers are not counted: they live in unsigned `meta`.
 * @param tx - the decoded wire transaction
 * @param expected - the claimed signature and payer, the treasury and the price
 * @returns the lamports paid to the treasury, or a refusal
 */
export async function checkTreasuryTransfer(tx: DecodedWireTransaction, expected: TreasuryTransferExpectation): Promise<TreasuryTransferCheck> {
  const { message } = tx;
  if (message.version !== 'legacy' && message.version !== 0) {
    return refuse('unsupported_transaction_version', `Transaction version ${String(message.version)} is not accepted; use a legacy or version 0 transaction.`);
  }
  const staticAccounts = message.staticAccounts;
  const feePayer = staticAccounts[0];
  const feePayerSignature = feePayer === undefined ? null : tx.signatures[feePayer];
  if (!feePayer || !feePayerSignature) return refuse('invalid_signature', 'The transaction has no fee payer signature.');
  if (getBase58Decoder().decode(feePayerSignature) !== expected.signature) {
    return refuse('signature_mismatch', 'The signature is not the id of this transaction (its first signature).');
  }
  if (!(await signedBy(feePayer, feePayerSignature, tx.messageBytes))) {
    return refuse('invalid_signature', 'The fee payer signature does not verify over the transaction message.');
  }
  if (feePayer !== expected.payer) {
    return refuse('payer_mismatch', 'The transaction was paid for and signed by another wallet than the payer.');
  }

  let lamports = 0n;
  let lookupTableTransfer = false;
  for (const instruction of message.instructions) {
    // Program ids can never come from lookup tables (the runtime refuses such a message).
    if (staticAccounts[instruction.programAddressIndex] !== SYSTEM_PROGRAM_ADDRESS) continue;
    const amount = transferSolAmount(instruction.data);
    const [sourceIndex, destinationIndex] = instruction.accountIndices ?? [];
    // Fewer than two accounts: the System Program would have failed the transaction.
    if (amount === null || sourceIndex === undefined || destinationIndex === undefined) continue;
    const source = staticAccounts[sourceIndex];
    const destination = staticAccounts[destinationIndex];
    if (source === undefined || destination === undefined) {
      // Indices past the static accounts point into address lookup tables.
      lookupTableTransfer = true;
      continue;
    }
    if (source === expected.payer && destination === expected.treasury && source !== destination) lamports += amount;
  }

  if (lamports >= expected.minLamports && lamports > 0n) return { ok: true, lamports };
  // A shortfall might hide behind a lookup table entry we cannot resolve offline, so say that
  // rather than "no transfer" or "too low".
  if (lookupTableTransfer) {
    return refuse(
      'address_lookup_table_unsupported',
      'A transfer in this transaction names an account through an address lookup table, which cannot be checked; send a transaction without lookup tables.',
    );
  }
  if (lamports === 0n) return refuse('no_transfer_to_treasury', 'The transaction has no SOL transfer from the payer to the treasury.');
  return refuse('amount_too_low', `The transaction pays ${lamports} lamports to the treasury; the price is ${expected.minLamports}.`);
}

// The legacy SOL rail (x402 v1, described in docs/payments.md): read the proof, then check it on chain.
// Explicit named re-exports: this is the import surface for routes and middleware.
export { DEFAULT_LEGACY_SOL_NETWORK, isSolAddress, isSolSignature, LEGACY_SOL_DEVNET, type LegacySolPayment } from './legacy-sol-payment';
export { decodeSolPaymentHeader } from './decode-payment-header';
export { PaymentHeaderError, type PaymentHeaderReason } from './payment-header-error';
export { solPaymentFromBody, type LegacyPaymentBodyFields } from './payment-from-body';
export { verifySolTransfer, type VerifySolTransferOptions } from './verify-sol-transfer';
export type { SolRefusalReason, SolTransferRefusal, SolTransferVerification, VerifiedSolTransfer } from './sol-transfer-verification';

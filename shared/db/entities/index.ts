export { FreeCaller } from './free-caller.entity';
export { WishlistItem } from './wishlist-item.entity';
export { FreeCorpusEntry } from './free-corpus-entry.entity';
export { PaymentAuthorization, type AuthorizationStatus } from './payment-authorization.entity';
export { LedgerSession } from './ledger-session.entity';
export { IdempotencyRecord } from './idempotency-record.entity';
export { ReferralCode } from './referral-code.entity';
export { CalibrationShare } from './calibration-share.entity';

import { PRODUCTS, type LedgerKind, type Product } from './products';

/**
 * The ledger's products whose rows are scored replies against a profile (simulate sessions and
 * duel legs): the only rows whose `score` is an EQ score. Every read that ranks, trends or counts
 * EQ (leaderboard, scoreboard, stats' pass rate, the progress report, certificates, the duel's
 * failure escalation) reads these rows and no others.
 */
export const EQ_SESSION_PRODUCTS: readonly string[] = Object.freeze(
  Object.values(PRODUCTS as Record<string, Product>)
    .filter((p) => p.kind === 'scored_session')
    .map((p) => p.id),
);

/**
 * The SQL condition on a `ledger_sessions` row (unqualified columns) that keeps only EQ sessions:
 * an EQ product with a profile and a score. Built from the catalog's ids, never from input.
 */
export const EQ_SESSION_SQL = `(product IN (${EQ_SESSION_PRODUCTS.map((id) => `'${id}'`).join(', ')}) AND profile IS NOT NULL AND score IS NOT NULL)`;

/**
 * What a ledger row of a product is, with its label. A product the catalog no longer knows reads as
 * a purchase under its own id, so it is never shown as an EQ score.
 * @param productId - the ledger's product column
 * @returns its kind and label
 */
export function ledgerKindOf(productId: string): { kind: LedgerKind; label: string } {
  const product = Object.values(PRODUCTS as Record<string, Product>).find((p) => p.id === productId);
  return product ? { kind: product.kind, label: product.label } : { kind: 'purchase', label: productId };
}

/**
 * Whether a ledger row of this product carries an EQ score.
 * @param productId - the ledger's product column
 * @returns true for simulate sessions and duel legs
 */
export function isEqSession(productId: string): boolean {
  return EQ_SESSION_PRODUCTS.includes(productId);
}

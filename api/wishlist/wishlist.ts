import type { DataSource } from 'typeorm';
import type { AppConfig } from '../../shared/config';
import { WishlistItem } from '../../shared/db/entities';
import { ensureFreeCaller } from '../http/free-caller';
import { classifyWishlistText } from './wishlist-junk';

/** The outcome of a wishlist submission, as the caller may see it (quarantine is not revealed). */
export type WishlistOutcome = { ok: true; submitted: number; remaining: number } | { ok: false; reason: 'cap_reached'; submitted: number };

/**
 * Stores a wishlist item. The per-caller cap is taken with a conditional UPDATE (race-free); junk
 * is stored quarantined and does not unlock the third free score, and the caller is not told.
 * @param dataSource - initialized DataSource
 * @param callerHash - the caller key
 * @param item - the validated item
 * @param cap - `freeTier.wishlistCap`
 * @returns how many the caller has submitted and may still submit, or that the cap is used
 */
export async function submitWishlistItem(
  dataSource: DataSource,
  callerHash: string,
  item: { text: string; category?: string },
  cap: AppConfig['freeTier']['wishlistCap'],
): Promise<WishlistOutcome> {
  await ensureFreeCaller(dataSource, callerHash);
  return dataSource.transaction(async (tx) => {
    const previous = await tx.getRepository(WishlistItem).find({ where: { callerHash }, select: { text: true } });
    const reason = classifyWishlistText(item.text, previous.map((p) => p.text));
    const updated = (await tx.query(
      `UPDATE free_callers
          SET wishlist_items = wishlist_items + 1,
              wishlist_submitted = wishlist_submitted OR $3,
              updated_at = now()
        WHERE caller_hash = $1 AND wishlist_items < $2
        RETURNING wishlist_items`,
      [callerHash, cap, reason === null],
    )) as [Array<{ wishlist_items: number }>, number];
    const row = updated[0][0];
    if (!row) return { ok: false as const, reason: 'cap_reached' as const, submitted: cap };
    await tx.getRepository(WishlistItem).insert({
      callerHash,
      text: item.text.trim(),
      category: item.category ?? null,
      quarantined: reason !== null,
      quarantineReason: reason,
    });
    return { ok: true as const, submitted: row.wishlist_items, remaining: Math.max(0, cap - row.wishlist_items) };
  });
}

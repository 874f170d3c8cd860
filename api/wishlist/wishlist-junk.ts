/** Why a wishlist item was quarantined (internal only; the caller is never told). */
export type JunkReason = 'too_short' | 'few_letters' | 'repeated_characters' | 'keyboard_mash' | 'link_spam' | 'duplicate';

const URL_RE = /\b(?:https?:\/\/|www\.)\S+/gi;

/**
 * Classifies a wishlist item as junk or not. Conservative on purpose: a terse but real wish
 * ("add a Spanish profile") passes; only texts with no usable content are quarantined.
 * @param text - the submitted item
 * @param previous - the caller's earlier items, for duplicates
 * @returns the reason it is junk, or null when it is kept
 */
export function classifyWishlistText(text: string, previous: readonly string[] = []): JunkReason | null {
  const normalized = text.trim().toLowerCase().replace(/\s+/g, ' ');
  const compact = normalized.replace(/\s/g, '');
  const withoutUrls = normalized.replace(URL_RE, ' ');
  const words = withoutUrls.match(/\p{L}{2,}/gu) ?? [];
  const letters = compact.match(/\p{L}/gu)?.length ?? 0;
  const urls = normalized.match(URL_RE) ?? [];

  if (compact.length < 8 || words.length < 2) return urls.length > 0 ? 'link_spam' : 'too_short';
  if (letters / compact.length < 0.5) return 'few_letters';
  if (/(.)\1{5,}/u.test(compact)) return 'repeated_characters';
  if (words.some((w) => /[bcdfghjklmnpqrstvwxz]{7,}/.test(w) || (w.length >= 25 && !/[aeiouy]/.test(w)))) return 'keyboard_mash';
  if (urls.length >= 2 || (urls.length === 1 && words.length < 4)) return 'link_spam';
  if (previous.some((p) => p.trim().toLowerCase().replace(/\s+/g, ' ') === normalized)) return 'duplicate';
  return null;
}

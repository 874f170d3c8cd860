export { FreeCaller } from './free-caller.entity';
export { WishlistItem } from './wishlist-item.entity';
export { FreeCorpusEntry } from './free-corpus-entry.entity';

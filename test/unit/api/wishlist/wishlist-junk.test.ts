import { expect } from 'chai';
import { classifyWishlistText } from '../../../../api/wishlist/wishlist-junk';

describe('classifyWishlistText', function () {
  for (const text of [
    'add a Spanish profile',
    'Please support Claude-style tool replies in the script check.',
    'A German formal profile for B2B support, please!',
    'webhooks when a duel resolves',
  ]) {
    it(`keeps a real wish: "${text}"`, function () {
      expect(classifyWishlistText(text)).to.equal(null);
    });
  }

  for (const [text, reason] of [
    ['hi', 'too_short'],
    ['ok ok', 'too_short'],
    ['ab cd 1234567890 ?!?!', 'few_letters'],
    ['yessssssss please do it', 'repeated_characters'],
    ['asdfghjkl qwrtzp', 'keyboard_mash'],
    ['buy now https://spam.example https://spam.example/2', 'link_spam'],
    ['https://spam.example/path', 'link_spam'],
  ] as const) {
    it(`quarantines "${text}" as ${reason}`, function () {
      expect(classifyWishlistText(text)).to.equal(reason);
    });
  }

  it('quarantines a repeat of the caller’s own earlier item', function () {
    expect(classifyWishlistText('Add a  Spanish profile', ['add a spanish profile'])).to.equal('duplicate');
  });
});

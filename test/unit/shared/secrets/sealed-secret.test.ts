import { expect } from 'chai';
import { openSecret, sealSecret, sealingKey } from '../../../../shared/secrets/sealed-secret';

describe('shared/secrets/sealed-secret', function () {
  const key = sealingKey('a-server-secret-of-16+', 'catalog-partner-signing-secret');

  it('seals a secret so that only its key and owner open it', function () {
    const sealed = sealSecret(key, 'whsec_abc', 'acme');
    expect(sealed.toString('latin1')).to.not.include('whsec_abc');
    expect(openSecret(key, sealed, 'acme')).to.equal('whsec_abc');
    expect(() => openSecret(key, sealed, 'other')).to.throw();
    expect(() => openSecret(sealingKey('a-server-secret-of-16+', 'another-purpose'), sealed, 'acme')).to.throw();
    const altered = Buffer.from(sealed);
    altered[altered.length - 1] ^= 1;
    expect(() => openSecret(key, altered, 'acme')).to.throw();
  });

  it('draws a fresh nonce each time', function () {
    expect(sealSecret(key, 's', 'o').equals(sealSecret(key, 's', 'o'))).to.equal(false);
  });
});

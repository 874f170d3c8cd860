import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { hashBearerSecret, mintBearerSecret, readBearerSecret } from '../../../../shared/secrets/bearer-secret';

describe('shared/secrets/bearer-secret', function () {
  it('mints prefixed 256-bit secrets, each drawn on its own', function () {
    const a = mintBearerSecret('hlr_');
    const b = mintBearerSecret('hlr_');
    expect(a).to.match(/^hlr_[A-Za-z0-9_-]{43}$/);
    expect(a).to.not.equal(b);
  });

  it('stores only a SHA-256 hex of the secret', function () {
    expect(hashBearerSecret('hlc_x')).to.equal(createHash('sha256').update('hlc_x').digest('hex'));
    expect(hashBearerSecret('hlc_x')).to.match(/^[0-9a-f]{64}$/).and.not.include('hlc_x');
  });

  it('reads a presented value as absent, malformed (wrong kind, too long) or the hash', function () {
    const secret = mintBearerSecret('hlb_');
    expect(readBearerSecret('', 'hlb_')).to.deep.equal({ kind: 'absent' });
    expect(readBearerSecret('   ', 'hlb_')).to.deep.equal({ kind: 'absent' });
    expect(readBearerSecret(secret, 'hlc_')).to.deep.equal({ kind: 'malformed' });
    expect(readBearerSecret(`hlb_${'a'.repeat(200)}`, 'hlb_')).to.deep.equal({ kind: 'malformed' });
    expect(readBearerSecret(` ${secret} `, 'hlb_')).to.deep.equal({ kind: 'present', hash: hashBearerSecret(secret) });
  });
});

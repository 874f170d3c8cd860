import { expect } from 'chai';
import { callerHashFor, normalizeClientAddress } from '../../../../api/http/caller-key';

describe('caller key', function () {
  it('unwraps IPv4-mapped IPv6 addresses', function () {
    expect(normalizeClientAddress('::ffff:203.0.113.5')).to.equal('203.0.113.5');
    expect(callerHashFor('::ffff:203.0.113.5', 'k'.repeat(16))).to.equal(callerHashFor('203.0.113.5', 'k'.repeat(16)));
  });

  it('groups an IPv6 address by its /64 prefix', function () {
    expect(normalizeClientAddress('2001:db8:0:1::5')).to.equal('2001:db8:0:1::/64');
    expect(normalizeClientAddress('2001:0db8:0000:0001:ffff::1')).to.equal('2001:db8:0:1::/64');
    expect(callerHashFor('2001:db8:0:1::5', 'k'.repeat(16))).to.equal(callerHashFor('2001:db8:0:1:abcd::9', 'k'.repeat(16)));
    expect(callerHashFor('2001:db8:0:1::5', 'k'.repeat(16))).not.to.equal(callerHashFor('2001:db8:0:2::5', 'k'.repeat(16)));
  });

  it('is a keyed hash: 64 hex characters that change with the key and never hold the address', function () {
    const a = callerHashFor('198.51.100.7', 'first-key-0123456');
    expect(a).to.match(/^[0-9a-f]{64}$/);
    expect(a).not.to.equal(callerHashFor('198.51.100.7', 'second-key-012345'));
    expect(a).not.to.contain('198');
  });
});

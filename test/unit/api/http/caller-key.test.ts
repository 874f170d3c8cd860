import { expect } from 'chai';
import { callerHashFor, normalizeClientAddress } from '../../../../api/http/caller-key';
import { AppError } from '../../../../shared/errors';

const KEY = 'k'.repeat(16);
const key = (address: string) => callerHashFor(address, KEY);

describe('caller key', function () {
  it('unwraps IPv4-mapped IPv6 addresses', function () {
    expect(normalizeClientAddress('::ffff:203.0.113.5')).to.equal('203.0.113.5');
    expect(key('::ffff:203.0.113.5')).to.equal(key('203.0.113.5'));
  });

  it('groups an IPv6 address by its /64 prefix', function () {
    expect(normalizeClientAddress('2001:db8:0:1::5')).to.equal('2001:db8:0:1::/64');
    expect(normalizeClientAddress('2001:0db8:0000:0001:ffff::1')).to.equal('2001:db8:0:1::/64');
    expect(key('2001:db8:0:1::5')).to.equal(key('2001:db8:0:1:abcd::9'));
    expect(key('2001:db8:0:1::5')).not.to.equal(key('2001:db8:0:2::5'));
  });

  it('is a keyed hash: 64 hex characters that change with the key and never hold the address', function () {
    const a = callerHashFor('198.51.100.7', 'first-key-0123456');
    expect(a).to.match(/^[0-9a-f]{64}$/);
    expect(a).not.to.equal(callerHashFor('198.51.100.7', 'second-key-012345'));
    expect(a).not.to.contain('198');
  });

  describe('gives every way of writing one address the key of its canonical form', function () {
    it('an IPv4 address with a port, as some proxies write it', function () {
      expect(key('203.0.113.7:1234')).to.equal(key('203.0.113.7'));
      expect(key('203.0.113.7:61001')).to.equal(key('203.0.113.7'));
    });

    it('zero-padded IPv4 octets, read as decimal', function () {
      expect(key('203.0.113.007')).to.equal(key('203.0.113.7'));
      expect(key('010.000.113.010')).to.equal(key('10.0.113.10'));
    });

    it('IPv4-mapped IPv6 in hex, unwrapped rather than lumped into the all-zero /64', function () {
      expect(key('::ffff:cb00:7107')).to.equal(key('203.0.113.7'));
      expect(key('0:0:0:0:0:FFFF:CB00:7107')).to.equal(key('203.0.113.7'));
      expect(key('::ffff:cb00:7107')).not.to.equal(key('::ffff:cb00:7108'));
      expect(key('::ffff:0:cb00:7107')).to.equal(key('203.0.113.7'));
    });

    it('IPv4-compatible IPv6 with a dotted tail, and its hex form', function () {
      expect(key('::5.6.7.8')).to.equal(key('5.6.7.8'));
      expect(key('::506:708')).to.equal(key('5.6.7.8'));
      expect(key('::5.6.7.8')).not.to.equal(key('::5.6.7.9'));
    });

    it('IPv6 with a dotted IPv4 tail, grouped by its /64 like any other IPv6 address', function () {
      expect(key('2001:db8:1:2::1.2.3.4')).to.equal(key('2001:db8:1:2::5'));
      expect(key('2001:db8:1:2::1.2.3.4')).to.equal(key('2001:db8:1:2::1.2.3.5'));
      expect(key('2001:db8:1:2::1.2.3.4')).not.to.equal(key('2001:db8:1:3::1.2.3.4'));
    });

    it('IPv6 in brackets, with a port, with a zone, or in capitals', function () {
      expect(key('[2001:db8:1:2::9]')).to.equal(key('2001:db8:1:2::5'));
      expect(key('[2001:db8:1:2::9]:443')).to.equal(key('2001:db8:1:2::5'));
      expect(key('[::ffff:203.0.113.7]:80')).to.equal(key('203.0.113.7'));
      expect(key('2001:DB8:1:2::9')).to.equal(key('2001:db8:1:2::5'));
      expect(key('fe80::1%eth0')).to.equal(key('fe80::2'));
    });

    it('keeps the other special addresses of the all-zero /64 apart', function () {
      expect(key('::1')).not.to.equal(key('::'));
      expect(key('::1')).not.to.equal(key('::ffff:0.0.0.1'));
    });
  });

  it('refuses an entry that is no IP address (400 invalid_client_address), never falling back to a shared or per-request key', function () {
    for (const entry of ['unknown', '', '   ', '203.0.113', '0x7f.0.0.1', '203.0.113.256', '2001:db8::g', '203.0.113.7, 198.51.100.1', '_hidden', '::1.2.3.0x4']) {
      expect(() => key(entry), JSON.stringify(entry))
        .to.throw(AppError)
        .that.satisfies((err: AppError) => err.status === 400 && err.code === 'invalid_client_address');
    }
  });
});

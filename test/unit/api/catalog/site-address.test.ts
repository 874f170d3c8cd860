import { expect } from 'chai';
import { pageUrlOf, siteOriginOf } from '../../../../api/catalog/installs/site-address';
import { ValidationError } from '../../../../shared/errors';

function ruleOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).to.be.instanceOf(ValidationError);
    return ((err as ValidationError).details as { fields: Array<{ rule: string }> }).fields[0]!.rule;
  }
  throw new Error('not refused');
}

describe('site addresses of the install workflow', function () {
  const production = { allowAddresses: [], allowPorts: [] };

  it('keeps an origin as URL.origin (lowercase, no default port, no trailing slash)', function () {
    expect(siteOriginOf('HTTPS://WWW.Example.COM:443/', production)).to.equal('https://www.example.com');
    expect(siteOriginOf('http://example.com', production)).to.equal('http://example.com');
  });

  it('refuses what is not an origin, naming the rule', function () {
    expect(ruleOf(() => siteOriginOf('https://example.com/page', production))).to.equal('origin');
    expect(ruleOf(() => siteOriginOf('https://example.com/?q=1', production))).to.equal('origin');
    expect(ruleOf(() => siteOriginOf('https://example.com#x', production))).to.equal('origin');
    expect(ruleOf(() => siteOriginOf('gopher://example.com', production))).to.equal('scheme');
    expect(ruleOf(() => siteOriginOf('https://u:p@example.com', production))).to.equal('credentials');
    expect(ruleOf(() => siteOriginOf('https://example.com:8443', production))).to.equal('port');
    expect(ruleOf(() => siteOriginOf('example.com', production))).to.equal('format');
  });

  it('takes a port only the configuration allows (a test or development site)', function () {
    expect(siteOriginOf('http://127.0.0.1:8080', { allowAddresses: ['127.0.0.1'], allowPorts: [8080] })).to.equal('http://127.0.0.1:8080');
  });

  it('takes a page on the same origin only, without its fragment', function () {
    expect(pageUrlOf('https://example.com/a/b?x=1#top', 'https://example.com')).to.equal('https://example.com/a/b?x=1');
    expect(ruleOf(() => pageUrlOf('https://evil.example/a', 'https://example.com'))).to.equal('same_origin');
    expect(ruleOf(() => pageUrlOf('http://example.com/a', 'https://example.com'))).to.equal('same_origin');
  });
});

import { expect } from 'chai';
import { createSecretBox } from '../../../../shared/secrets/secret-box';

const SECRET = 'a-configured-secret-of-at-least-32-characters';

describe('shared/secrets/secret-box', function () {
  it('seals a secret so that only the same key, purpose and context open it', function () {
    const box = createSecretBox(SECRET, 'pilot-agent-key');
    const sealed = box.seal('sk-live-123', 'sponsor-a');
    expect(sealed).to.match(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/).and.not.include('sk-live-123');
    expect(box.open(sealed, 'sponsor-a')).to.equal('sk-live-123');
    expect(box.open(sealed, 'sponsor-b'), 'another row').to.equal(undefined);
    expect(createSecretBox(SECRET, 'another-purpose').open(sealed, 'sponsor-a'), 'another purpose').to.equal(undefined);
    expect(createSecretBox(`${SECRET}!`, 'pilot-agent-key').open(sealed, 'sponsor-a'), 'another key').to.equal(undefined);
  });

  it('draws a fresh nonce per seal and refuses altered or malformed values', function () {
    const box = createSecretBox(SECRET, 'pilot-agent-key');
    const a = box.seal('same', 'ctx');
    expect(box.seal('same', 'ctx')).to.not.equal(a);
    const [v, nonce, body, tag] = a.split('.');
    const flipped = Buffer.from(body, 'base64url');
    flipped[0] ^= 1;
    expect(box.open([v, nonce, flipped.toString('base64url'), tag].join('.'), 'ctx')).to.equal(undefined);
    for (const bad of ['', 'v1', 'v2.a.b.c', 'v1.a.b', 'v1.!!.b.c']) expect(box.open(bad, 'ctx'), bad).to.equal(undefined);
  });
});

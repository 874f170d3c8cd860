import { expect } from 'chai';
import { devOutboundEnv } from '../../../supervisor/dev-outbound';
import { testConfig } from '../../helpers/config';

describe('devOutboundEnv', function () {
  it('lets loopback sites through on a development stack by default', function () {
    const env = devOutboundEnv({});
    expect(env).to.deep.equal({ OUTBOUND_ALLOW_ADDRESSES: '127.0.0.1,::1' });
    // The value is one the web and the worker accept.
    expect(testConfig(env).outbound.allowAddresses).to.deep.equal(['127.0.0.1', '::1']);
  });

  it('keeps what the environment says, an empty list included', function () {
    expect(devOutboundEnv({ OUTBOUND_ALLOW_ADDRESSES: '' })).to.deep.equal({});
    expect(devOutboundEnv({ OUTBOUND_ALLOW_ADDRESSES: '10.1.2.3' })).to.deep.equal({});
  });

  it('leaves production (no npm start) with nothing widened', function () {
    expect(testConfig().outbound).to.deep.equal({ allowAddresses: [], allowPorts: [] });
  });
});

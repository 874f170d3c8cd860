import { expect } from 'chai';
import {
  SOLANA_ERROR__JSON_RPC__INVALID_PARAMS,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_NODE_UNHEALTHY,
  SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR,
  SolanaError,
} from '@solana/kit';
import { rpcFailureToAppError } from '../../../../../api/payments/sol/rpc-failure';
import { UnavailableError, UpstreamError } from '../../../../../shared/errors';

function httpError(statusCode: number) {
  return new SolanaError(SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR, { headers: new Headers(), message: 'x', statusCode });
}

describe('rpcFailureToAppError', function () {
  it('makes faults that pass a 503 solana_rpc_unavailable', function () {
    const fetchFailed = new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    const timeout = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    const unhealthy = new SolanaError(SOLANA_ERROR__JSON_RPC__SERVER_ERROR_NODE_UNHEALTHY, { numSlotsBehind: 120 });
    for (const err of [fetchFailed, timeout, httpError(500), httpError(503), httpError(429), unhealthy]) {
      const mapped = rpcFailureToAppError(err);
      expect(mapped, String(err)).to.be.instanceOf(UnavailableError);
      expect(mapped.status).to.equal(503);
      expect(mapped.code).to.equal('solana_rpc_unavailable');
      expect(mapped.expose).to.equal(true);
      expect(mapped.cause).to.equal(err);
    }
  });

  it('makes an unusable answer a 502 solana_rpc_error', function () {
    const invalidParams = new SolanaError(SOLANA_ERROR__JSON_RPC__INVALID_PARAMS, { __serverMessage: 'bad' });
    for (const err of [httpError(401), httpError(404), invalidParams, new SyntaxError('Unexpected token <')]) {
      const mapped = rpcFailureToAppError(err);
      expect(mapped, String(err)).to.be.instanceOf(UpstreamError);
      expect(mapped.status).to.equal(502);
      expect(mapped.code).to.equal('solana_rpc_error');
    }
  });
});

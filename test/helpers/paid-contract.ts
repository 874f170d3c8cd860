import { expect } from 'chai';
import type { Address } from 'viem';
import type { PaidStack } from './paid-stack';
import type { SignedPayment } from './x402-payments';

/** A first paid answer: the signed payment and what the service answered. */
export interface FirstPaidCall {
  signed: SignedPayment;
  response: { status: number; body: unknown; headers: Record<string, string> };
}

/**
 * The replay contract every paid product keeps (section 5 item 8): the same authorization with the
 * same request replays the stored answer (`X-Payment-Replayed`, same body and receipt) without a
 * second charge; with another request it is 409 `payment_already_used`. One ledger row in all.
 * @param paid - the paid stack
 * @param path - the product's path
 * @param payer - the paying wallet
 * @param first - the first, delivered answer
 * @param body - the request the first answer was for
 * @param otherBody - a different request of the same wallet
 */
export async function expectReplayAndReuseRefused(
  paid: PaidStack,
  path: string,
  payer: Address,
  first: FirstPaidCall,
  body: object,
  otherBody: object,
): Promise<void> {
  expect(first.response.status, JSON.stringify(first.response.body)).to.equal(200);
  const afterFirst = await paid.balanceOf(payer);

  const again = await paid.stack.http.post(path).set('PAYMENT-SIGNATURE', first.signed.header).send(body);
  expect(again.status).to.equal(200);
  expect(again.headers['x-payment-replayed']).to.equal('true');
  expect(again.body).to.deep.equal(first.response.body);
  expect(again.headers['payment-response']).to.equal(first.response.headers['payment-response']);

  const other = await paid.stack.http.post(path).set('PAYMENT-SIGNATURE', first.signed.header).send(otherBody);
  expect(other.status).to.equal(409);
  expect(other.body.error.code).to.equal('payment_already_used');

  expect(await paid.balanceOf(payer)).to.equal(afterFirst);
  expect(await paid.count('ledger_sessions')).to.equal(1);
}

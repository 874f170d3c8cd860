import { expect } from 'chai';
import { payCheckout, type CardStack } from './card-stack';
import { until } from './until';

/** A company bought, paid and claimed through the API: its two tokens (each shown once). */
export interface ActiveCompany {
  companyToken: string;
  bundleToken: string;
  checkoutSessionId: string;
}

/**
 * Buys the company program with the local card processor's success card and claims it under the
 * current terms, waiting for the webhook's grant.
 * @param cards - the card stack
 * @returns the company's tokens
 */
export async function buyActiveCompany(cards: CardStack): Promise<ActiveCompany> {
  const http = cards.stack.http;
  const bought = await http.post('/api/aei/company/checkout').send({});
  expect(bought.status, JSON.stringify(bought.body)).to.equal(201);
  expect((await payCheckout(bought.body.checkout_url, '4242 4242 4242 4242')).status).to.equal(303);
  const terms = (await http.get('/api/aei/company/terms').expect(200)).body as { version: string; content_hash: string };
  const claim = () => http.post('/api/aei/company/claim').set('X-AEI-COMPANY-TOKEN', bought.body.company_token).send({ terms_version: terms.version, terms_hash: terms.content_hash });
  await until(async () => (await claim()).status === 200, 10_000, 'the company claim');
  return { companyToken: bought.body.company_token, bundleToken: bought.body.bundle_token, checkoutSessionId: bought.body.checkout_session_id };
}

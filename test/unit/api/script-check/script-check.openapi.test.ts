import { expect } from 'chai';
import supertest from 'supertest';
import { createApp } from '../../../../api/app';
import { scriptCheckRequestSchema } from '../../../../api/script-check/script-check.schema';
import { fakeDeps } from '../../../helpers/fake-deps';

describe('script check in the catalog documents (no network)', function () {
  const http = () => supertest(createApp(fakeDeps({ TREASURY_EVM_ADDRESS: `0x${'b'.repeat(40)}` })).callback());

  it('publishes the validating schema, whose anyOf requires approved_facts or source_text', async function () {
    const { body } = await http().get('/api/openapi.json').expect(200);
    const post = body.paths['/api/script-check'].post;
    const published = post.requestBody.content['application/json'].schema;
    expect(published).to.deep.equal(JSON.parse(JSON.stringify(scriptCheckRequestSchema)));
    expect(published.required).to.deep.equal(['wallet_address', 'reply_text']);
    expect(published.anyOf.map((s: { required: string[] }) => s.required)).to.deep.equal([['approved_facts'], ['source_text']]);
    expect(post.summary).to.contain('180000 USDC units');
    expect(post.description).to.contain('not factual-accuracy detection');
    expect(post.responses['200'].schema ?? post.responses['200'].content['application/json'].schema).to.be.an('object');
    expect(body.paths['/api/script-check'].get.responses).to.have.property('402');
  });

  it('lists the product as available in the pricing manifest, with its quote path', async function () {
    const { body } = await http().get('/api/pricing').expect(200);
    expect(body.script_check_endpoint).to.include({ available: true, price_usdc_units: 180000, price_lamports: 950000 });
    expect(body.script_check_endpoint.quote).to.deep.equal({ method: 'GET', path: '/api/script-check' });
  });
});

import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { mintCredential } from '../../../../shared/operators/credentials';
import { startTestStack, type TestStack } from '../../../helpers/stack';

const PARTNER = {
  partner_id: 'acme-replies',
  name: 'Acme Replies',
  summary: 'A reply-review inbox for support teams.',
  url: 'https://acme.example/start?ref=catalog',
  install_kind: 'snippet',
  job_slugs: ['check-replies-before-sending', 'rewrite-robotic-replies'],
};

describe('catalog partners, signed conversions and attribution totals (real PostgreSQL)', function () {
  this.timeout(30_000);
  let stack: TestStack;
  let operator: string;

  before(async function () {
    stack = await startTestStack('catalog-conversions', { worker: false, env: { PUBLIC_BASE_URL: 'https://humanlike.test' } });
  });
  after(async function () {
    await stack?.close();
  });
  beforeEach(async function () {
    await stack.truncate();
    operator = (await mintCredential(stack.deps.dataSource, 'operator', 3_600)).token;
  });

  const query = <T>(sql: string, params: unknown[] = []) => stack.deps.dataSource.query(sql, params) as Promise<T[]>;
  const count = async (table: string) => (await query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0].n;
  const fieldsOf = (body: { error: { details: { fields: Array<{ path: string }> } } }) => body.error.details.fields.map((f) => f.path);

  const listPartner = async (partner: Record<string, unknown> = PARTNER): Promise<string> => {
    const res = await stack.http.post('/api/operator/catalog/partners').set('Authorization', `Bearer ${operator}`).send(partner).expect(201);
    return res.body.signing_secret as string;
  };
  const handoffFor = async (offeringId: string, jobSlug = 'check-replies-before-sending'): Promise<string> =>
    (await stack.http.post('/api/catalog/match').send({ job_slug: jobSlug, offering_id: offeringId }).expect(201)).body.handoff_id as string;

  // What a partner sends: the body bytes signed with its secret by the standardwebhooks package.
  const sendConversion = (secret: string, body: object | string, options: { id?: string; at?: Date; tamper?: (raw: string) => string } = {}) => {
    const raw = typeof body === 'string' ? body : JSON.stringify(body);
    const id = options.id ?? `msg_${randomUUID()}`;
    const at = options.at ?? new Date();
    const signature = new Webhook(secret).sign(id, at, raw);
    return stack.http
      .post('/api/catalog/conversions')
      .set('Content-Type', 'application/json')
      .set('webhook-id', id)
      .set('webhook-timestamp', String(Math.floor(at.getTime() / 1000)))
      .set('webhook-signature', signature)
      .send(options.tamper ? options.tamper(raw) : raw);
  };
  const vendorTotals = async () =>
    (await stack.http.get('/api/catalog/attribution/summary?include=vendors').set('Authorization', `Bearer ${operator}`).expect(200)).body.vendors as Array<{
      partner_id: string;
      handoffs: number;
      conversions: number;
    }>;

  it('lists a partner only with an operator credential, shows its secret once and stores it sealed', async function () {
    const anonymous = await stack.http.post('/api/operator/catalog/partners').send(PARTNER);
    expect(anonymous.status).to.equal(401);
    expect((await stack.http.get('/api/operator/catalog/partners')).status).to.equal(401);
    expect(await count('catalog_partners')).to.equal(0);

    const created = await stack.http.post('/api/operator/catalog/partners').set('Authorization', `Bearer ${operator}`).send(PARTNER).expect(201);
    const secret = created.body.signing_secret as string;
    expect(secret).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.body.partner).to.include({ partner_id: 'acme-replies', install_kind: 'snippet' });
    const stored = await query<{ row: string }>(`SELECT t::text AS row FROM catalog_partners t`);
    expect(stored).to.have.length(1);
    // bytea prints as hex: look for the secret in both spellings.
    expect(stored[0].row).to.not.include(secret.slice('whsec_'.length));
    expect(stored[0].row).to.not.include(Buffer.from(secret).toString('hex'));
    const list = await stack.http.get('/api/operator/catalog/partners').set('Authorization', `Bearer ${operator}`).expect(200);
    expect(JSON.stringify(list.body)).to.not.include(secret.slice(6));
    expect(list.body.partners.map((p: { partner_id: string }) => p.partner_id)).to.deep.equal(['acme-replies']);

    const again = await stack.http.post('/api/operator/catalog/partners').set('Authorization', `Bearer ${operator}`).send(PARTNER);
    expect(again.status).to.equal(409);
    expect(again.body.error.code).to.equal('partner_exists');

    // The partner's offering joins its jobs' matches and the handoff document.
    const match = await stack.http.get('/api/catalog/match/rewrite-robotic-replies').expect(200);
    expect(match.body.offerings.map((o: { id: string; kind: string }) => [o.id, o.kind])).to.deep.equal([
      ['rewrite', 'paid_product'],
      ['acme-replies', 'partner'],
    ]);
    const doc = (await stack.http.get('/.well-known/catalog.json').expect(200)).body;
    expect(doc.offerings.find((o: { id: string }) => o.id === 'acme-replies')).to.include({ kind: 'partner', url: PARTNER.url });
    expect(JSON.stringify(doc)).to.not.include(secret.slice(6));
  });

  it('refuses bad partner input with 422 naming the field and stores nothing', async function () {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...PARTNER, partner_id: 'simulate' }, '/partner_id'],
      [{ ...PARTNER, partner_id: 'Acme' }, '/partner_id'],
      [{ ...PARTNER, url: 'http://acme.example' }, '/url'],
      [{ ...PARTNER, install_kind: 'iframe' }, '/install_kind'],
      [{ ...PARTNER, job_slugs: [] }, '/job_slugs'],
      [{ ...PARTNER, job_slugs: ['no-such-job'] }, '/job_slugs/0'],
      [{ ...PARTNER, name: ' ' }, '/name'],
    ];
    for (const [body, field] of cases) {
      const res = await stack.http.post('/api/operator/catalog/partners').set('Authorization', `Bearer ${operator}`).send(body);
      expect(res.status, field).to.equal(422);
      expect(fieldsOf(res.body), field).to.include(field);
    }
    expect(await count('catalog_partners')).to.equal(0);
  });

  it('counts a valid signed conversion of a real handoff once, and acknowledges a duplicate without counting it', async function () {
    const secret = await listPartner();
    const selection = await stack.http.post('/api/catalog/match').send({ job_slug: 'check-replies-before-sending', offering_id: 'acme-replies' }).expect(201);
    const handoff = selection.body.handoff_id as string;
    expect(selection.body.handoff_url).to.equal(`https://acme.example/start?ref=catalog&handoff_id=${handoff}`);
    expect(selection.body.offering).to.include({ id: 'acme-replies', kind: 'partner' });

    const first = await sendConversion(secret, { partner_id: 'acme-replies', handoff_id: handoff, event_type: 'signup' });
    expect(first.status, JSON.stringify(first.body)).to.equal(201);
    expect(first.body).to.include({ handoff_id: handoff, counted: true, status: 'counted' });
    const duplicate = await sendConversion(secret, { partner_id: 'acme-replies', handoff_id: handoff, event_type: 'purchase' });
    expect(duplicate.status).to.equal(200);
    expect(duplicate.body).to.include({ handoff_id: handoff, counted: false, status: 'already_counted' });

    expect(await count('catalog_conversions')).to.equal(1);
    expect(await vendorTotals()).to.deep.equal([{ partner_id: 'acme-replies', name: 'Acme Replies', handoffs: 1, conversions: 1 }]);

    // Inside the clock skew either way (4 minutes off): accepted.
    const behind = await sendConversion(secret, { partner_id: 'acme-replies', handoff_id: await handoffFor('acme-replies'), event_type: 'install' }, { at: new Date(Date.now() - 240_000) });
    expect(behind.status).to.equal(201);
    const ahead = await sendConversion(secret, { partner_id: 'acme-replies', handoff_id: await handoffFor('acme-replies'), event_type: 'install' }, { at: new Date(Date.now() + 240_000) });
    expect(ahead.status).to.equal(201);
    expect(await count('catalog_conversions')).to.equal(3);
  });

  it('refuses forged, tampered, replayed, late, unknown-handoff and foreign-handoff conversions, counting none of them', async function () {
    const secret = await listPartner();
    const otherSecret = await listPartner({ ...PARTNER, partner_id: 'other-vendor', name: 'Other' });
    const handoff = await handoffFor('acme-replies');
    const otherHandoff = await handoffFor('other-vendor');
    const ownHandoff = await handoffFor('simulate');
    const body = { partner_id: 'acme-replies', handoff_id: handoff, event_type: 'install' };

    const refusals: Array<[string, () => Promise<{ status: number; body: { error: { code: string } } }>, number, string]> = [
      ['forged: signed with another secret', () => sendConversion(otherSecret, body), 401, 'signature_invalid'],
      ['forged: a made-up secret', () => sendConversion(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, body), 401, 'signature_invalid'],
      ['tampered body', () => sendConversion(secret, body, { tamper: (raw) => raw.replace('install', 'purchase') }), 401, 'signature_invalid'],
      ['unsigned', () => stack.http.post('/api/catalog/conversions').set('Content-Type', 'application/json').send(body), 401, 'signature_invalid'],
      ['late: signed 6 minutes ago', () => sendConversion(secret, body, { at: new Date(Date.now() - 360_000) }), 401, 'signature_invalid'],
      ['early: signed 6 minutes ahead', () => sendConversion(secret, body, { at: new Date(Date.now() + 360_000) }), 401, 'signature_invalid'],
      ['unknown partner', () => sendConversion(secret, { ...body, partner_id: 'nobody' }), 401, 'signature_invalid'],
      ['unknown handoff', () => sendConversion(secret, { ...body, handoff_id: randomUUID() }), 404, 'handoff_not_found'],
      ["another partner's handoff", () => sendConversion(secret, { ...body, handoff_id: otherHandoff }), 404, 'handoff_not_found'],
      ["a handoff to this service's own offering", () => sendConversion(secret, { ...body, handoff_id: ownHandoff }), 404, 'handoff_not_found'],
    ];
    for (const [what, send, status, code] of refusals) {
      const res = await send();
      expect(res.status, what).to.equal(status);
      expect(res.body.error.code, what).to.equal(code);
    }
    expect(await count('catalog_conversions')).to.equal(0);
    expect(await count('catalog_conversion_messages')).to.equal(0);

    // A replay of an accepted message (same webhook-id, same signed bytes) is refused and counts nothing more.
    const id = `msg_${randomUUID()}`;
    const at = new Date();
    expect((await sendConversion(secret, body, { id, at })).status).to.equal(201);
    const replay = await sendConversion(secret, body, { id, at });
    expect(replay.status).to.equal(409);
    expect(replay.body.error.code).to.equal('conversion_replayed');
    // The same id reused for another handoff is a replay too.
    const reuse = await sendConversion(secret, { ...body, handoff_id: await handoffFor('acme-replies') }, { id });
    expect(reuse.status).to.equal(409);

    // Outside the attribution window: refused, nothing recorded.
    const old = await handoffFor('acme-replies', 'rewrite-robotic-replies');
    await query(`UPDATE catalog_handoffs SET attribution_expires_at = now() - interval '1 second' WHERE id = $1`, [old]);
    const closed = await sendConversion(secret, { ...body, handoff_id: old });
    expect(closed.status).to.equal(409);
    expect(closed.body.error.code).to.equal('attribution_window_closed');

    expect(await count('catalog_conversions')).to.equal(1);
    expect(await count('catalog_conversion_messages')).to.equal(1);
    expect(await vendorTotals()).to.deep.equal([
      { partner_id: 'acme-replies', name: 'Acme Replies', handoffs: 3, conversions: 1 },
      { partner_id: 'other-vendor', name: 'Other', handoffs: 1, conversions: 0 },
    ]);
  });

  it('refuses a malformed conversion with 422 naming the field, before any signature check, and stores nothing', async function () {
    const secret = await listPartner();
    const handoff = await handoffFor('acme-replies');
    const cases: Array<[object | string, string]> = [
      [{ partner_id: 'acme-replies', handoff_id: 'not-a-uuid', event_type: 'signup' }, '/handoff_id'],
      [{ partner_id: 'acme-replies', handoff_id: handoff }, '/event_type'],
      [{ partner_id: 'acme-replies', handoff_id: handoff, event_type: 'click' }, '/event_type'],
      [{ handoff_id: handoff, event_type: 'signup' }, '/partner_id'],
      [{ partner_id: 'acme-replies', handoff_id: handoff, event_type: 'signup', amount: 5 }, '/amount'],
      ['{"partner_id": ', ''],
    ];
    for (const [body, field] of cases) {
      const res = await sendConversion(secret, body);
      expect(res.status, JSON.stringify(body)).to.equal(422);
      expect(fieldsOf(res.body), JSON.stringify(body)).to.include(field);
    }
    expect(await count('catalog_conversions')).to.equal(0);
    expect(await count('catalog_conversion_messages')).to.equal(0);
  });

  it('shows per-vendor totals only to an operator credential', async function () {
    await listPartner();
    await handoffFor('acme-replies');
    const publicSummary = await stack.http.get('/api/catalog/attribution/summary').expect(200);
    expect(publicSummary.body).to.not.have.property('vendors');
    expect(JSON.stringify(publicSummary.body)).to.not.include('acme');
    expect(publicSummary.body.handoffs.total).to.equal(1);

    const anonymous = await stack.http.get('/api/catalog/attribution/summary?include=vendors');
    expect(anonymous.status).to.equal(401);
    expect(anonymous.body.error.code).to.equal('credential_required');
    expect(JSON.stringify(anonymous.body)).to.not.include('acme');
    const wrong = await stack.http.get('/api/catalog/attribution/summary?include=vendors').set('Authorization', 'Bearer hlo_not-a-real-token');
    expect(wrong.status).to.equal(401);
    const admin = (await mintCredential(stack.deps.dataSource, 'admin', 3_600)).token;
    expect((await stack.http.get('/api/catalog/attribution/summary?include=vendors').set('Authorization', `Bearer ${admin}`)).status).to.equal(403);
    expect(await vendorTotals()).to.deep.equal([{ partner_id: 'acme-replies', name: 'Acme Replies', handoffs: 1, conversions: 0 }]);
    const bad = await stack.http.get('/api/catalog/attribution/summary?include=everything');
    expect(bad.status).to.equal(422);
    expect(fieldsOf(bad.body)).to.deep.equal(['/include']);
  });
});

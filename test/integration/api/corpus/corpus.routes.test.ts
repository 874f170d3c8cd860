import { expect } from 'chai';
import { startTestStack, type TestStack } from '../../../helpers/stack';

describe('corpus routes', function () {
  let stack: TestStack;

  before(async function () {
    stack = await startTestStack('corpus');
  });
  after(async function () {
    await stack?.close();
  });
  beforeEach(async function () {
    await stack.truncate();
  });

  describe('GET /api/corpus/evidence', function () {
    it('counts consented free scores per profile and never returns text', async function () {
      const secret = 'my very distinctive consented reply about the blue umbrella';
      const send = (ip: string, body: object) => stack.http.post('/api/score').set('X-Forwarded-For', ip).send({ data_consent: true, ...body });
      await send('192.0.2.20', { proposed_text: secret, target_profile: 'triage-nurse' }).expect(200);
      await send('192.0.2.21', { proposed_text: `${secret} again`, target_profile: 'triage-nurse' }).expect(200);
      await send('192.0.2.22', { proposed_text: 'no profile here' }).expect(200);

      const res = await stack.http.get('/api/corpus/evidence').expect(200);
      expect(res.body.total_entries).to.equal(3);
      expect(res.body.entries_without_profile).to.equal(1);
      expect(res.body.per_profile).to.have.length(28);
      expect(res.body.per_profile.find((p: { profile: string }) => p.profile === 'triage-nurse').entries).to.equal(2);
      expect(JSON.stringify(res.body)).not.to.contain('umbrella');
    });

    it('reports zeros on an empty corpus', async function () {
      const res = await stack.http.get('/api/corpus/evidence').expect(200);
      expect(res.body.total_entries).to.equal(0);
      expect(res.body.per_profile.every((p: { entries: number }) => p.entries === 0)).to.equal(true);
    });
  });
});

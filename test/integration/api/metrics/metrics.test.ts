import { expect } from 'chai';
import type { PrivateKeyAccount } from 'viem/accounts';
import { mintCredential } from '../../../../shared/operators/credentials';
import { simulateBody } from '../../../fixtures/builders';
import { PUBLIC_BASE_URL, startPaidStack, type PaidStack } from '../../../helpers/paid-stack';
import { signPayment } from '../../../helpers/x402-payments';

const RESOURCE = `${PUBLIC_BASE_URL}/api/simulate`;

// The Prometheus text exposition format, line by line (https://prometheus.io/docs/instrumenting/exposition_formats/).
const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL = '[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\\n]|\\\\["\\\\n])*"';
const SAMPLE = new RegExp(`^(${NAME})(\\{(?:${LABEL})(?:,${LABEL})*\\})? (-?[0-9.e+-]+|NaN|[+-]Inf)$`);
const COMMENT = new RegExp(`^# (HELP ${NAME} .*|TYPE ${NAME} (counter|gauge|histogram|summary|untyped))$`);

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function parsePrometheus(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      expect(line, 'comment line').to.match(COMMENT);
      continue;
    }
    const m = SAMPLE.exec(line);
    expect(m, `sample line: ${line}`).to.not.equal(null);
    const labels = Object.fromEntries([...(m![2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    samples.push({ name: m![1], labels, value: Number(m![3]) });
  }
  return samples;
}

const find = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));

describe('GET /metrics', function () {
  this.timeout(60_000);
  let paid: PaidStack;
  let payer: PrivateKeyAccount;
  let token: string;

  before(async function () {
    paid = await startPaidStack('operators-metrics', { env: { WORKER_METRICS_PORT: '0' } });
    payer = paid.payers[0];
  });
  after(async function () {
    try {
      await paid?.stack.deps.dataSource.query('TRUNCATE network_config_changes, network_config, operator_credentials');
    } finally {
      await paid?.close();
    }
  });

  it('serves the Prometheus text format with the service series after a paid call, and no wallet or token in any label', async function () {
    await paid.stack.truncate();
    await paid.stack.deps.dataSource.query('TRUNCATE network_config_changes, network_config, operator_credentials');
    token = (await mintCredential(paid.stack.deps.dataSource, 'operator', 3_600)).token;
    const body = simulateBody(payer.address);
    // Underpaid: refused with a reason.
    const under = await signPayment(payer, paid.requirement(49_999), RESOURCE);
    const refused = await paid.stack.http.post('/api/simulate').set('PAYMENT-SIGNATURE', under.header).send(body);
    expect(refused.status).to.equal(402);
    const reason = refused.body.error as string;
    expect(reason).to.match(/^[a-z_]+$/);
    // Paid and settled.
    const signed = await signPayment(payer, paid.requirement(50_000), RESOURCE);
    const ok = await paid.stack.http.post('/api/simulate').set('PAYMENT-SIGNATURE', signed.header).send(body);
    expect(ok.status, JSON.stringify(ok.body)).to.equal(200);

    const res = await paid.stack.http.get('/metrics').set('X-Forwarded-For', '10.40.0.1').set('Authorization', `Bearer ${token}`);
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.match(/^text\/plain; version=0\.0\.4/);
    const samples = parsePrometheus(res.text);

    expect(find(samples, 'http_request_duration_seconds_count', { method: 'post', route: '/api/simulate', status: '200' })).to.have.length(1);
    expect(find(samples, 'http_request_duration_seconds_count', { method: 'post', route: '/api/simulate', status: '402' })[0].value).to.equal(1);
    expect(find(samples, 'settlement_outcomes_total', { outcome: 'settled' })[0].value).to.equal(1);
    expect(find(samples, 'payments_refused_total', { reason })[0].value).to.equal(1);
    expect(find(samples, 'free_rounds_used_total')).to.have.length(1);
    // The paid call passed the admission gate and left it.
    expect(find(samples, 'paid_admission', { state: 'limit' })[0].value).to.be.at.least(paid.stack.deps.config.payments.admission.min);
    expect(find(samples, 'paid_admission', { state: 'active' })[0].value).to.equal(0);
    expect(find(samples, 'paid_admission', { state: 'waiting' })[0].value).to.equal(0);
    const queues = new Set(find(samples, 'queue_jobs', { state: 'waiting' }).map((s) => s.labels.queue));
    expect([...queues].sort()).to.deep.equal(['exports', 'maintenance', 'scoring', 'settlement', 'stress']);
    expect(find(samples, 'queue_jobs', { queue: 'scoring', state: 'completed' })[0].value).to.be.at.least(1);
    expect(find(samples, 'process_cpu_user_seconds_total')).to.have.length(1);
    expect(find(samples, 'nodejs_eventloop_lag_seconds')).to.have.length(1);

    const labelValues = samples.flatMap((s) => Object.values(s.labels)).join('\n').toLowerCase();
    expect(labelValues).not.to.contain(payer.address.toLowerCase().slice(2));
    expect(labelValues).not.to.contain(token.slice(4).toLowerCase());
    expect(labelValues).not.to.contain('sorry');

    // The worker's own /metrics: the durations of the jobs the paid call ran, per queue and job name.
    const workerUrl = `http://127.0.0.1:${paid.stack.worker!.metricsPort!}/metrics`;
    const scraped = await fetch(workerUrl, { headers: { Authorization: `Bearer ${token}` } });
    expect(scraped.status).to.equal(200);
    expect(scraped.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
    const text = await scraped.text();
    const worker = parsePrometheus(text);
    expect(find(worker, 'job_duration_seconds_count', { queue: 'scoring', job: 'score-text', outcome: 'completed' })[0].value).to.equal(1);
    expect(find(worker, 'job_duration_seconds_count', { queue: 'settlement', job: 'settle-payment', outcome: 'completed' })[0].value).to.equal(1);
    expect(find(worker, 'job_duration_seconds_bucket', { queue: 'scoring', job: 'score-text', le: '+Inf' })[0].value).to.equal(1);
    expect(find(worker, 'job_duration_seconds_sum', { queue: 'scoring', job: 'score-text' })[0].value).to.be.above(0);
    expect(find(worker, 'process_cpu_user_seconds_total')).to.have.length(1);
    expect(text.toLowerCase()).not.to.contain(payer.address.toLowerCase().slice(2));
  });

  it("refuses the worker's /metrics without an operator credential", async function () {
    const workerUrl = `http://127.0.0.1:${paid.stack.worker!.metricsPort!}/metrics`;
    const none = await fetch(workerUrl);
    expect(none.status).to.equal(401);
    expect(((await none.json()) as { error: { code: string } }).error.code).to.equal('credential_required');
    expect(none.headers.get('www-authenticate')).to.equal('Bearer realm="humanlike-operators"');
    const bad = await fetch(workerUrl, { headers: { Authorization: `Bearer hlo_${'C'.repeat(43)}` } });
    expect(bad.status).to.equal(401);
    const admin = (await mintCredential(paid.stack.deps.dataSource, 'admin', 3_600)).token;
    const wrong = await fetch(workerUrl, { headers: { Authorization: `Bearer ${admin}` } });
    expect(wrong.status).to.equal(403);
    expect(((await wrong.json()) as { error: { code: string } }).error.code).to.equal('credential_wrong_role');
    const expired = await mintCredential(paid.stack.deps.dataSource, 'operator', 3_600);
    await paid.stack.deps.dataSource.query(`UPDATE operator_credentials SET created_at = now() - interval '2 days', expires_at = now() - interval '1 day' WHERE id = $1`, [expired.credential.id]);
    const exp = await fetch(workerUrl, { headers: { Authorization: `Bearer ${expired.token}` } });
    expect(exp.status).to.equal(401);
    expect(((await exp.json()) as { error: { code: string } }).error.code).to.equal('credential_expired');
  });
});

import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { main } from '../../../cli/main';
import { scoreText } from '../../../shared/scoring';

async function run(argv: string[], stdin = ''): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const code = await main(argv, { stdin: Readable.from([stdin]), stdout, stderr, color: false });
  return { code, out, err };
}

const REPLY = "hmm I think it's the cache, try clearing it?";

describe('humanlike CLI', () => {
  it('lists the 28 profiles as JSON', async () => {
    const { code, out } = await run(['profiles', '--json']);
    expect(code).to.equal(0);
    const profiles = JSON.parse(out) as { id: string }[];
    expect(profiles).to.have.length(28);
    expect(profiles[0]).to.have.keys('id', 'name', 'description', 'targets', 'tempo', 'typical_words');
  });

  it('prints a table without colors when not on a terminal', async () => {
    const { code, out } = await run(['score', '--profile', 'warm-casual-texter', '--delay', '12', REPLY]);
    expect(code).to.equal(0);
    expect(out).to.match(/warm-casual-texter\s+EQ score \d+\/100\s+(PASS|FAIL)/);
    expect(out).to.match(/timing/);
    expect(out).to.not.include('\u001b[');
  });

  it('gives the engine result itself with --json, reading the reply from stdin', async () => {
    const { code, out } = await run(['score', '--profile', 'terse-senior-engineer', '--json', '--deep', '-'], REPLY);
    expect(code).to.equal(0);
    expect(JSON.parse(out)).to.deep.equal(scoreText({ text: REPLY, profile: 'terse-senior-engineer', deep: true }));
  });

  it('scores JSON lines in input order and reports bad lines without stopping', async () => {
    const lines = [
      JSON.stringify({ id: 'a', text: REPLY, delay_seconds: 9, target_profile: 'warm-casual-texter', incoming: 'is the site down?' }),
      'not json',
      JSON.stringify({ id: 'b', text: '' }),
      JSON.stringify({ id: 'c', text: REPLY, target_profile: 'nobody' }),
      JSON.stringify({ id: 'd', text: REPLY }),
      JSON.stringify({ id: 'e', text: 5 }),
    ].join('\n');
    const { code, out } = await run(['score', '--jsonl'], lines);
    expect(code).to.equal(0);
    const records = out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records.map((r) => r.id)).to.deep.equal(['a', null, 'b', 'c', 'd', 'e']);
    expect(records[0]).to.include.keys('scorer_version', 'human_likeness', 'eq_score', 'passed', 'dimensions', 'signals');
    expect((records[0].dimensions as Record<string, unknown>).timing).to.have.property('measured', 9);
    expect(records[1]).to.have.property('error');
    expect(records[2]).to.have.property('code', 'empty_text');
    expect(records[3]).to.have.property('code', 'unknown_profile');
    expect(records[4]).to.not.have.property('eq_score');
    expect((records[4].dimensions as Record<string, { measured: number }>).empathy.measured).to.be.a('number');
    expect(records[5]).to.have.property('code', 'invalid_line');
  });

  it('exits 2 with one clear line for bad input', async () => {
    for (const argv of [
      ['score', '--profile', 'nobody', REPLY],
      ['score', '--profile', 'warm-casual-texter', '--delay', '-3', REPLY],
      ['score', '--delay', 'soon', REPLY],
      ['score', '--bogus'],
      ['frobnicate'],
    ]) {
      const { code, err, out } = await run(argv);
      expect(code, argv.join(' ')).to.equal(2);
      expect(err.trim().split('\n'), argv.join(' ')).to.have.length(1);
      expect(out).to.equal('');
    }
    const empty = await run(['score', '-'], '   ');
    expect(empty.code).to.equal(2);
    expect(empty.err).to.include('empty_text');
  });

  it('refuses a confidently non-English reply with unsupported_language (one line, exit 2; a JSON-lines record)', async () => {
    const german = 'Oh nein, das tut mir wirklich leid. Das muss eine furchtbar schwere Woche für dich gewesen sein. Ich bin für dich da.';
    const one = await run(['score', '--profile', 'grief-support-peer', german]);
    expect(one.code).to.equal(2);
    expect(one.out).to.equal('');
    expect(one.err.trim().split('\n')).to.have.length(1);
    expect(one.err).to.match(/unsupported_language: .*German/);
    const lines = await run(['score', '--jsonl'], JSON.stringify({ id: 'de', text: german }) + '\n' + JSON.stringify({ id: 'en', text: REPLY }) + '\n');
    const records = lines.out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records[0]).to.include({ id: 'de', code: 'unsupported_language' });
    expect(records[0]).to.not.have.property('human_likeness');
    expect(records[1]).to.have.property('human_likeness');
  });

  it('prints per-command usage for --help on every command and exits 0', async () => {
    const cases: Array<[string[], RegExp]> = [
      [[], /Usage: humanlike \[options\] \[command\]/],
      [['--help'], /Usage: humanlike \[options\] \[command\]/],
      [['help'], /Usage: humanlike \[options\] \[command\]/],
      [['profiles', '--help'], /Usage: humanlike profiles \[options\][\s\S]*--json/],
      [['score', '--help'], /Usage: humanlike score \[options\] \[text\.\.\.\][\s\S]*--delay <seconds>[\s\S]*--jsonl/],
      [['score', '-h'], /Usage: humanlike score/],
      [['help', 'score'], /Usage: humanlike score/],
      [['pay', '--help'], /Usage: humanlike pay \[options\] \[text\.\.\.\][\s\S]*--asset <token>[\s\S]*--retry-for <seconds>/],
      [['help', 'pay'], /Usage: humanlike pay/],
    ];
    for (const [argv, usage] of cases) {
      const { code, out, err } = await run(argv);
      expect(code, argv.join(' ')).to.equal(0);
      expect(out, argv.join(' ')).to.match(usage);
      expect(err, argv.join(' ')).to.equal('');
    }
  });

  it('takes a negative --delay as a value and rejects it with the range message', async () => {
    for (const command of ['score', 'pay']) {
      const { code, err, out } = await run([command, '--profile', 'warm-casual-texter', '--delay', '-3', REPLY]);
      expect(code, command).to.equal(2);
      expect(err, command).to.match(/^humanlike: .*--delay.* must be a number of seconds >= 0, got "-3"/);
      expect(err.trim().split('\n'), command).to.have.length(1);
      expect(out, command).to.equal('');
    }
  });

  it('exits 2 with one line for bad pay flags, before reading a key', async () => {
    for (const [argv, message] of [
      [['pay', '--profile', 'x', '--asset', 'usdc', 'hi'], /--asset must be a token address, got "usdc"/],
      [['pay', '--profile', 'x', '--max-amount', '1.5', 'hi'], /--max-amount must be a whole number of atomic units/],
      [['pay', '--profile', 'x', '--retry-for', '-1', 'hi'], /--retry-for must be a number of seconds >= 0/],
      [['pay', '--profile', 'x', '--url', 'localhost:3000', 'hi'], /--url must be an http\(s\) URL/],
      [['pay', 'hi'], /--profile/],
    ] as Array<[string[], RegExp]>) {
      const { code, err } = await run(argv);
      expect(code, argv.join(' ')).to.equal(2);
      expect(err, argv.join(' ')).to.match(message);
      expect(err.trim().split('\n'), argv.join(' ')).to.have.length(1);
    }
  });

  it('exits 2 with one line for a bad --product call, before reading a key', async () => {
    const body = JSON.stringify({ reply_text: 'It is $5.', approved_facts: ['$5'] });
    for (const [argv, message] of [
      [['pay', '--product', 'nope', '--body', body], /--product must be one of simulate, .*script-check.*, got "nope"/],
      [['pay', '--product', 'script-check'], /--product script-check takes its request as JSON: give --body/],
      [['pay', '--product', 'script-check', '--body', '{"reply_text": '], /--body is not JSON/],
      [['pay', '--product', 'script-check', '--body', '["a"]'], /--body must be a JSON object/],
      [['pay', '--product', 'script-check', '--body', JSON.stringify({ reply_text: 'x', approved_facts: ['y'], wallet_address: '0x1' })], /leave wallet_address out of --body/],
      [['pay', '--product', 'script-check', '--body', body, '--body-file', 'b.json'], /--body or --body-file, not both/],
      [['pay', '--product', 'script-check', '--body-file', '/nonexistent/b.json'], /cannot read --body-file \/nonexistent\/b.json: ENOENT/],
      [['pay', '--product', 'script-check', '--profile', 'shy-student', '--delay', '3', '--body', body, 'hi'], /drop --profile, --delay, the TEXT argument/],
    ] as Array<[string[], RegExp]>) {
      const { code, err } = await run(argv);
      expect(code, argv.join(' ')).to.equal(2);
      expect(err, argv.join(' ')).to.match(message);
      expect(err.trim().split('\n'), argv.join(' ')).to.have.length(1);
    }
  });

  it('round-trips through the real executable with no server, database or network', () => {
    const bin = resolve(__dirname, '..', '..', '..', 'cli', 'humanlike.ts');
    const input = JSON.stringify({ id: 1, text: REPLY, target_profile: 'shy-student' }) + '\n';
    const res = spawnSync(process.execPath, ['--import', 'tsx', bin, 'score', '--jsonl'], { input, encoding: 'utf8', env: { ...process.env, REDIS_URL: 'redis://127.0.0.1:1', DATABASE_URL: 'postgres://127.0.0.1:1/none' } });
    expect(res.status, res.stderr).to.equal(0);
    const record = JSON.parse(res.stdout) as { id: number; eq_score: number };
    expect(record.id).to.equal(1);
    expect(record.eq_score).to.equal(scoreText({ text: REPLY, profile: 'shy-student' }).result!.eq_score);
  });

  it('answers "pay --help" through the real executable with exit 0', () => {
    const bin = resolve(__dirname, '..', '..', '..', 'cli', 'humanlike.ts');
    const res = spawnSync(process.execPath, ['--import', 'tsx', bin, 'pay', '--help'], { encoding: 'utf8', env: { ...process.env, HUMANLIKE_PRIVATE_KEY: '' } });
    expect(res.status, res.stderr).to.equal(0);
    expect(res.stdout).to.match(/^Usage: humanlike pay \[options\] \[text\.\.\.\]/);
    expect(res.stderr).to.equal('');
  });
});

import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { payForSession, PaymentRefusedError, type PaidSessionOutcome } from '../pay/pay-for-session';
import { CliUsageError, readAll, type CliIo } from '../io';

const OPTIONS = {
  url: { type: 'string', default: 'http://localhost:3000' },
  profile: { type: 'string' },
  delay: { type: 'string', default: '20' },
  incoming: { type: 'string' },
  deep: { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
  'max-amount': { type: 'string' },
  'idempotency-key': { type: 'string' },
  'key-file': { type: 'string' },
  asset: { type: 'string', multiple: true },
  network: { type: 'string', default: 'eip155:8453' },
} as const;

function privateKeyFrom(keyFile: string | undefined, env: NodeJS.ProcessEnv): `0x${string}` {
  // Never a command-line argument: argv is visible to every user of the machine.
  const raw = (keyFile ? readFileSync(keyFile, 'utf8') : env.HUMANLIKE_PRIVATE_KEY ?? '').trim();
  if (!raw) throw new CliUsageError('set HUMANLIKE_PRIVATE_KEY (or --key-file PATH) to the paying wallet\'s private key');
  const key = raw.startsWith('0x') ? raw : `0x${raw}`;
  if (!/^0x[0-9a-fA-F]{64}$/.test(key)) throw new CliUsageError('the private key must be 32 bytes of hex');
  return key as `0x${string}`;
}

function render(outcome: PaidSessionOutcome): string {
  const lines: string[] = [];
  const body = outcome.body as Record<string, any> | null;
  if (outcome.status === 200 && body?.score) {
    lines.push(`EQ score ${body.score.eq_score} (${body.score.passed ? 'passed' : 'not passed'}) against ${body.target_profile}; human-likeness ${body.score.human_likeness}`);
    lines.push(`Add to the system prompt: ${body.score.suggested_prompt_addition}`);
    lines.push(String(body.improvement));
    if (Array.isArray(body.rewrite_guidance)) {
      for (const step of body.rewrite_guidance) lines.push(`  ${step.priority}. ${step.action}`);
    }
    lines.push(`Result id: ${body.result_id}; your referral code: ${body.referral_code}${outcome.replayed ? ' (replayed delivery)' : ''}`);
  } else {
    lines.push(`HTTP ${outcome.status}: ${JSON.stringify(body)}`);
  }
  if (outcome.paid) lines.push(`Signed: ${outcome.paid.amount} units of ${outcome.paid.asset} on ${outcome.paid.network} to ${outcome.paid.payTo}`);
  if (outcome.receipt) lines.push(`Receipt: ${JSON.stringify(outcome.receipt)}`);
  return `${lines.join('\n')}\n`;
}

/**
 * `humanlike pay`: a paid POST /api/simulate from a private key (x402 v2, EIP-3009).
 * @param argv - arguments after "pay"
 * @param io - streams
 * @param env - environment (the private key)
 * @returns 0 when the paid result came, 1 when the server refused or failed, 2 on usage errors
 */
export async function payCommand(argv: string[], io: CliIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  if (!values.profile) throw new CliUsageError('--profile ID is required (see "humanlike profiles")');
  const delay = Number(values.delay);
  if (!Number.isFinite(delay) || delay < 0) throw new CliUsageError(`--delay must be a number of seconds >= 0, got "${values.delay}"`);
  let maxAmount: bigint | undefined;
  for (const asset of values.asset ?? []) {
    if (!/^0x[0-9a-fA-F]{40}$/.test(asset)) throw new CliUsageError(`--asset must be a token address, got "${asset}"`);
  }
  if (values['max-amount'] !== undefined) {
    if (!/^[0-9]{1,30}$/.test(values['max-amount'])) throw new CliUsageError('--max-amount must be a whole number of atomic units');
    maxAmount = BigInt(values['max-amount']);
  }
  const text = positionals.length === 0 || positionals[0] === '-' ? (await readAll(io.stdin)).trim() : positionals.join(' ');
  if (!text) throw new CliUsageError('give the reply to score as TEXT or on stdin');
  const privateKey = privateKeyFrom(values['key-file'], env);
  let outcome: PaidSessionOutcome;
  try {
    outcome = await payForSession({
      url: values.url,
      privateKey,
      maxAmount,
      idempotencyKey: values['idempotency-key'],
      allowedAssets: (values.asset ?? []).map((asset) => ({ network: values.network, asset })),
      request: {
        proposed_text: text,
        response_delay_seconds: delay,
        target_profile: values.profile,
        tier: values.deep ? 'deep' : 'basic',
        ...(values.incoming ? { incoming_message: values.incoming } : {}),
      },
    });
  } catch (err) {
    if (err instanceof PaymentRefusedError) {
      io.stderr.write(`humanlike pay: ${err.message}\n`);
      return 1;
    }
    io.stderr.write(`humanlike pay: ${(err as Error).message}\n`);
    return 1;
  }
  io.stdout.write(values.json ? `${JSON.stringify({ status: outcome.status, body: outcome.body, receipt: outcome.receipt ?? null, paid: outcome.paid ?? null, replayed: outcome.replayed })}\n` : render(outcome));
  return outcome.status === 200 ? 0 : 1;
}

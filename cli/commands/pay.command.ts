import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { Command } from 'commander';
import { payForSession, PaymentRefusedError, ServerUnreachableError, type PaidSessionOutcome, type PayEvent } from '../pay/pay-for-session';
import { defaultStateDir } from '../pay/state-dir';
import { CliUsageError, readAll, type CliIo } from '../io';
import { atomicUnitsOption, httpUrlOption, networkOption, secondsOption, tokenAddressOption } from '../options';
import { runCommand } from '../run-command';

/** The parsed flags of `humanlike pay`. */
interface PayFlags {
  url: string;
  profile: string;
  delay: number;
  incoming?: string;
  deep: boolean;
  json: boolean;
  maxAmount?: bigint;
  idempotencyKey?: string;
  keyFile?: string;
  asset?: string[];
  network: string;
  retryFor: number;
}

const DESCRIPTION =
  'A paid session on a humanlike server (POST /api/simulate, x402 v2): takes the 402 challenge, signs its EVM requirement ' +
  '(EIP-3009 USDC) with HUMANLIKE_PRIVATE_KEY (or --key-file), sends the same request with the signature, and prints the ' +
  'result and the decoded receipt.';

const NOTES = `
It pays only in x402 default assets (Base USDC) unless --asset allows another token (the test USDC
of npm start's development chain, printed at start), and never above --max-amount.

A payment is never signed twice for one request. When the paid request gets no final answer (no
answer, a 5xx, or 402 settlement_failed), the same authorization is sent again for --retry-for
seconds (honouring Retry-After). If that runs out, the signed authorization (never the key) is kept
in a 0600 file under $HUMANLIKE_STATE_DIR (else $XDG_STATE_HOME/humanlike, else
~/.local/state/humanlike), the command exits 1, and running the same command again (same URL,
request and wallet) resumes it: it is never charged twice.

Exit status: 0 the paid result came, 1 the server refused or failed (or the payment is pending),
2 bad arguments or input.

Example:
  HUMANLIKE_PRIVATE_KEY=0x... humanlike pay --asset 0x... --profile grief-support-peer --deep \\
    "Oh no, I'm so sorry. Want me to call you tonight?"`;

function privateKeyFrom(keyFile: string | undefined, env: NodeJS.ProcessEnv): `0x${string}` {
  // Never a command-line argument: argv is visible to every user of the machine.
  let raw: string;
  try {
    raw = (keyFile ? readFileSync(keyFile, 'utf8') : (env.HUMANLIKE_PRIVATE_KEY ?? '')).trim();
  } catch (err) {
    throw new CliUsageError(`cannot read --key-file ${keyFile}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  if (!raw) throw new CliUsageError("set HUMANLIKE_PRIVATE_KEY (or --key-file PATH) to the paying wallet's private key");
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

function describeEvent(event: PayEvent): string {
  if (event.type === 'resuming') {
    return `humanlike pay: resuming the pending payment signed at ${event.signedAt} (${event.paid.amount} units of ${event.paid.asset} on ${event.paid.network}); it is never charged twice\n`;
  }
  return `humanlike pay: ${event.problem}; sending the same signed payment again in ${(event.waitMs / 1000).toFixed(1)} s\n`;
}

// Failures of a call (exit 1), each said in one line that names what to do.
function describeFailure(err: unknown, flags: PayFlags): string {
  if (err instanceof PaymentRefusedError && err.reason === 'asset_not_allowed' && err.offer) {
    const { asset, network, amount } = err.offer;
    return `the quote asks ${amount} units of token ${asset} on ${network}, which is not allowed: this client pays only x402 default assets (such as Base USDC) unless told otherwise; if you trust this server's token, pass --asset ${asset}${network === flags.network ? '' : ` --network ${network}`}`;
  }
  if (err instanceof PaymentRefusedError && err.reason === 'above_limit') return `${err.message}; raise --max-amount to pay it`;
  if (err instanceof ServerUnreachableError) return `${err.message} (is the server running, and is --url right?)`;
  return (err as Error).message;
}

async function runPay(words: string[], flags: PayFlags, io: CliIo, env: NodeJS.ProcessEnv): Promise<number> {
  const text = words.length === 0 || (words.length === 1 && words[0] === '-') ? (await readAll(io.stdin)).trim() : words.join(' ');
  if (!text) throw new CliUsageError('give the reply to score as TEXT or on stdin');
  const privateKey = privateKeyFrom(flags.keyFile, env);
  let outcome: PaidSessionOutcome;
  try {
    outcome = await payForSession({
      url: flags.url,
      privateKey,
      maxAmount: flags.maxAmount,
      idempotencyKey: flags.idempotencyKey,
      allowedAssets: (flags.asset ?? []).map((asset) => ({ network: flags.network, asset })),
      retryForMs: flags.retryFor * 1000,
      stateDir: defaultStateDir(env, homedir()),
      onEvent: (event) => io.stderr.write(describeEvent(event)),
      request: {
        proposed_text: text,
        response_delay_seconds: flags.delay,
        target_profile: flags.profile,
        tier: flags.deep ? 'deep' : 'basic',
        ...(flags.incoming ? { incoming_message: flags.incoming } : {}),
      },
    });
  } catch (err) {
    // Any failure of the call (an unreadable state file, a full disk) is one line and exit 1, never a stack.
    io.stderr.write(`humanlike pay: ${describeFailure(err, flags)}\n`);
    return 1;
  }
  io.stdout.write(
    flags.json
      ? `${JSON.stringify({ status: outcome.status, body: outcome.body, receipt: outcome.receipt ?? null, paid: outcome.paid ?? null, replayed: outcome.replayed, resumed_from: outcome.resumedFrom ?? null })}\n`
      : render(outcome),
  );
  return outcome.status === 200 ? 0 : 1;
}

/**
 * Defines `humanlike pay`: a paid POST /api/simulate from a private key (x402 v2, EIP-3009).
 * @param io - streams
 * @param env - environment (the private key, the state directory)
 * @param report - receives the exit code: 0 when the paid result came, 1 when the server refused or failed
 * @returns the command
 */
export function createPayCommand(io: CliIo, env: NodeJS.ProcessEnv, report: (code: number) => void): Command {
  return new Command('pay')
    .summary('a paid session on a humanlike server (x402, from a private key)')
    .description(DESCRIPTION)
    .argument('[text...]', 'the reply to score; "-" or nothing reads it from stdin')
    .requiredOption('--profile <id>', 'a profile id (see "humanlike profiles")')
    .option('--url <url>', 'base URL of the server', httpUrlOption, 'http://localhost:3000')
    .option('--delay <seconds>', 'seconds the agent waited before replying', secondsOption('--delay'), 20)
    .option('--incoming <text>', 'the message being answered')
    .option('--deep', 'the deep tier: contributions, evidence, rewrite guidance', false)
    .option('--json', 'machine-readable output', false)
    .option('--max-amount <units>', 'never sign for more than this many atomic units (default 1000000 = 1 USDC)', atomicUnitsOption)
    .option('--asset <token>', 'also pay with this token address (repeatable)', tokenAddressOption)
    .option('--network <caip2>', 'the network of the --asset tokens', networkOption, 'eip155:8453')
    .option('--idempotency-key <key>', 'sent as Idempotency-Key')
    .option('--key-file <path>', 'read the private key from this file instead of HUMANLIKE_PRIVATE_KEY')
    .option('--retry-for <seconds>', 'how long to send the same signed payment again while the answer is not final', secondsOption('--retry-for'), 30)
    .addHelpText('after', NOTES)
    .action(async (words: string[], flags: PayFlags) => report(await runPay(words, flags, io, env)));
}

/**
 * Runs `humanlike pay` alone (what `humanlike pay …` runs).
 * @param argv - arguments after "pay"
 * @param io - streams
 * @param env - environment (the private key, the state directory)
 * @returns 0 when the paid result came, 1 when the server refused or failed, 2 on usage errors
 */
export async function payCommand(argv: string[], io: CliIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let code = 0;
  const command = createPayCommand(io, env, (c) => (code = c)).name('humanlike pay');
  return runCommand(command, argv, io, () => code);
}

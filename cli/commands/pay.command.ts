import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, resolve } from 'node:path';
import { Command } from 'commander';
import { formatUsdc } from '../../shared/money';
import { PRODUCTS } from '../../shared/products';
import { payForSession, SIMULATE_PATH, type ProductRequest, PaymentRefusedError, ServerUnreachableError, type PaidSessionOutcome, type PayEvent } from '../pay/pay-for-session';
import { renderPaidAnswer } from '../pay/render-answer';
import { answerFileContent, payJson } from '../pay/stable-json';
import { defaultStateDir } from '../pay/state-dir';
import { CliUsageError, readAll, type CliIo } from '../io';
import { atomicUnitsOption, httpUrlOption, networkOption, secondsOption, tokenAddressOption } from '../options';
import { runCommand } from '../run-command';

/** The parsed flags of `humanlike pay`. */
interface PayFlags {
  url: string;
  product: string;
  body?: string;
  bodyFile?: string;
  profile?: string;
  delay: number;
  incoming?: string;
  deep: boolean;
  json: boolean;
  out?: string;
  maxAmount?: bigint;
  idempotencyKey?: string;
  keyFile?: string;
  asset?: string[];
  network: string;
  retryFor: number;
}

const DESCRIPTION =
  'A paid call on a humanlike server (x402 v2): a simulate session (POST /api/simulate) from the reply and its flags, or ' +
  'any paid product with --product and its JSON body. Takes the 402 challenge, signs its EVM requirement ' +
  '(EIP-3009 USDC) with HUMANLIKE_PRIVATE_KEY (or --key-file), sends the same request with the signature, and prints the ' +
  'result and the decoded receipt.';

// Paid products by their catalog id (the ledger's product column), e.g. script-check -> /api/script-check.
const PRODUCT_PATHS: ReadonlyMap<string, string> = new Map(Object.values(PRODUCTS).map((p) => [p.id, p.path]));
// Flags that describe a simulate session; another product takes its whole request from --body.
const SESSION_FLAGS = ['profile', 'delay', 'incoming', 'deep'] as const;

const NOTES = `
It pays only in x402 default assets (Base USDC) unless --asset allows another token (the test USDC
of npm start's development chain, printed at start), and never above --max-amount.

A payment is never signed twice for one request. When the paid request gets no final answer (no
answer, a 5xx, or 402 settlement_failed), the same authorization is sent again for --retry-for
seconds (honouring Retry-After). If that runs out, the signed authorization (never the key) is kept
in a 0600 file under $HUMANLIKE_STATE_DIR (else $XDG_STATE_HOME/humanlike, else
~/.local/state/humanlike), the command exits 1, and running the same command again (same URL,
request and wallet) resumes it: it is never charged twice.

Output: a short summary of the answer for a person, then what was signed and the receipt. --json
prints one JSON object instead: status, body, receipt, paid, replayed, resumed_from in that order,
and inside body, receipt and paid every object's keys sorted (as jq -S), so equal answers print
equal bytes. --out FILE also writes the answer there: JSON with sorted keys, or for the training
dataset its JSON Lines as the server sent them (a manifest line, one line per session, an end line).

Exit status: 0 the paid result came, 1 the server refused or failed (or the payment is pending),
2 bad arguments or input.

Another paid product: --product ID (${[...PRODUCT_PATHS.keys()].join(', ')}) with its request
body as JSON in --body or --body-file (a path, or - for stdin); wallet_address is filled in from the
key. The same rules apply: a request is never paid twice.

Examples:
  HUMANLIKE_PRIVATE_KEY=0x... humanlike pay --asset 0x... --profile grief-support-peer --deep \\
    "Oh no, I'm so sorry. Want me to call you tonight?"
  HUMANLIKE_PRIVATE_KEY=0x... humanlike pay --asset 0x... --product script-check \\
    --body '{"reply_text": "Acme Pro is $5 a month.", "approved_facts": ["Acme Pro costs $5.00 per month."]}'
  HUMANLIKE_PRIVATE_KEY=0x... humanlike pay --asset 0x... --product training-dataset --body '{}' \\
    --out dataset.jsonl`;

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

function describeEvent(event: PayEvent): string {
  if (event.type === 'resuming') {
    return `humanlike pay: resuming the pending payment signed at ${event.signedAt} (${formatUsdc(event.paid.amount)}: ${event.paid.amount} units of ${event.paid.asset} on ${event.paid.network}); it is never charged twice\n`;
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

async function sessionRequest(words: string[], flags: PayFlags, io: CliIo): Promise<ProductRequest> {
  if (flags.profile === undefined) throw new CliUsageError('--profile <id> is required for a simulate session (another product takes --product and --body)');
  const text = words.length === 0 || (words.length === 1 && words[0] === '-') ? (await readAll(io.stdin)).trim() : words.join(' ');
  if (!text) throw new CliUsageError('give the reply to score as TEXT or on stdin');
  return {
    proposed_text: text,
    response_delay_seconds: flags.delay,
    target_profile: flags.profile,
    tier: flags.deep ? 'deep' : 'basic',
    ...(flags.incoming ? { incoming_message: flags.incoming } : {}),
  };
}

async function productBody(flags: PayFlags, io: CliIo): Promise<ProductRequest> {
  let raw: string;
  let source: string;
  if (flags.body !== undefined) {
    if (flags.bodyFile !== undefined) throw new CliUsageError('give the request body once: --body or --body-file, not both');
    raw = flags.body;
    source = '--body';
  } else {
    source = `--body-file ${flags.bodyFile}`;
    try {
      raw = flags.bodyFile === '-' ? await readAll(io.stdin) : readFileSync(String(flags.bodyFile), 'utf8');
    } catch (err) {
      throw new CliUsageError(`cannot read ${source}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (err) {
    throw new CliUsageError(`${source} is not JSON: ${(err as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new CliUsageError(`${source} must be a JSON object (the request body)`);
  if ('wallet_address' in parsed) throw new CliUsageError(`leave wallet_address out of ${source}: it is the paying key's address, filled in by the client`);
  return parsed as ProductRequest;
}

/** The product path and request body the flags describe; usage errors before any key is read. */
async function paidRequest(words: string[], flags: PayFlags, io: CliIo, sources: (flag: string) => string | undefined): Promise<{ path: string; request: ProductRequest }> {
  const path = PRODUCT_PATHS.get(flags.product);
  if (!path) throw new CliUsageError(`--product must be one of ${[...PRODUCT_PATHS.keys()].join(', ')}, got "${flags.product}"`);
  const hasBody = flags.body !== undefined || flags.bodyFile !== undefined;
  if (!hasBody) {
    if (path !== SIMULATE_PATH) throw new CliUsageError(`--product ${flags.product} takes its request as JSON: give --body '{...}' or --body-file PATH`);
    return { path, request: await sessionRequest(words, flags, io) };
  }
  const sessionFlags = SESSION_FLAGS.filter((flag) => sources(flag) === 'cli').map((flag) => `--${flag}`);
  if (words.length > 0 || sessionFlags.length > 0) {
    throw new CliUsageError(`with --body or --body-file the whole request is that JSON: drop ${[...sessionFlags, ...(words.length > 0 ? ['the TEXT argument'] : [])].join(', ')}`);
  }
  return { path, request: await productBody(flags, io) };
}

// Checked before anything is signed: a paid answer must never be lost to a path that cannot be written.
function checkOutFile(out: string | undefined): string | undefined {
  if (out === undefined) return undefined;
  const file = resolve(out);
  try {
    if (statSync(file, { throwIfNoEntry: false })?.isDirectory()) throw new CliUsageError(`--out ${out} is a directory; name a file`);
    accessSync(dirname(file), constants.W_OK);
  } catch (err) {
    if (err instanceof CliUsageError) throw err;
    throw new CliUsageError(`--out ${out} cannot be written: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return out;
}

// The training dataset comes as JSON Lines when it goes to a file; every other answer as JSON.
function acceptFor(flags: PayFlags): string {
  return flags.product === 'training-dataset' && flags.out !== undefined ? 'application/jsonl' : 'application/json';
}

async function runPay(words: string[], flags: PayFlags, io: CliIo, env: NodeJS.ProcessEnv, sources: (flag: string) => string | undefined): Promise<number> {
  const { path, request } = await paidRequest(words, flags, io, sources);
  const outFile = checkOutFile(flags.out);
  const privateKey = privateKeyFrom(flags.keyFile, env);
  let outcome: PaidSessionOutcome;
  try {
    outcome = await payForSession({
      url: flags.url,
      path,
      privateKey,
      maxAmount: flags.maxAmount,
      idempotencyKey: flags.idempotencyKey,
      accept: acceptFor(flags),
      allowedAssets: (flags.asset ?? []).map((asset) => ({ network: flags.network, asset })),
      retryForMs: flags.retryFor * 1000,
      stateDir: defaultStateDir(env, homedir()),
      onEvent: (event) => io.stderr.write(describeEvent(event)),
      request,
    });
  } catch (err) {
    // Any failure of the call (an unreadable state file, a full disk) is one line and exit 1, never a stack.
    io.stderr.write(`humanlike pay: ${describeFailure(err, flags)}\n`);
    return 1;
  }
  let written: string | undefined;
  if (outFile !== undefined && outcome.status === 200) {
    try {
      await writeFile(outFile, answerFileContent(outcome.body));
      written = outFile;
    } catch (err) {
      // Paid for: the answer still reaches the terminal, as JSON, and the run says what went wrong.
      io.stdout.write(payJson(outcome));
      io.stderr.write(`humanlike pay: the answer could not be written to --out ${outFile} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); it is printed above\n`);
      return 1;
    }
  }
  io.stdout.write(flags.json ? payJson(outcome) : renderPaidAnswer(outcome, { product: flags.product, outFile: written }));
  return outcome.status === 200 ? 0 : 1;
}

/**
 * Defines `humanlike pay`: a paid POST /api/simulate, or to any paid product with `--product` and
 * `--body`/`--body-file`, from a private key (x402 v2, EIP-3009).
 * @param io - streams
 * @param env - environment (the private key, the state directory)
 * @param report - receives the exit code: 0 when the paid result came, 1 when the server refused or failed
 * @returns the command
 */
export function createPayCommand(io: CliIo, env: NodeJS.ProcessEnv, report: (code: number) => void): Command {
  const command = new Command('pay')
    .summary('a paid call on a humanlike server (x402, from a private key)')
    .description(DESCRIPTION)
    .argument('[text...]', 'the reply to score; "-" or nothing reads it from stdin')
    .option('--profile <id>', 'a profile id (see "humanlike profiles"); required for a simulate session')
    .option('--product <id>', 'the paid product, by catalog id (e.g. script-check)', 'simulate')
    .option('--body <json>', "another product's request body, as JSON (wallet_address is added)")
    .option('--body-file <path>', "another product's request body, as a JSON file (- for stdin)")
    .option('--url <url>', 'base URL of the server', httpUrlOption, 'http://localhost:3000')
    .option('--delay <seconds>', 'seconds the agent waited before replying', secondsOption('--delay'), 20)
    .option('--incoming <text>', 'the message being answered')
    .option('--deep', 'the deep tier: contributions, evidence, rewrite guidance', false)
    .option('--json', 'print the answer as one JSON object (stable member and key order) instead of a summary', false)
    .option('--out <file>', 'also write the answer to this file (the training dataset as JSON Lines)')
    .option('--max-amount <units>', 'never sign for more than this many atomic units (default 1000000 = 1 USDC)', atomicUnitsOption)
    .option('--asset <token>', 'also pay with this token address (repeatable)', tokenAddressOption)
    .option('--network <caip2>', 'the network of the --asset tokens', networkOption, 'eip155:8453')
    .option('--idempotency-key <key>', 'sent as Idempotency-Key')
    .option('--key-file <path>', 'read the private key from this file instead of HUMANLIKE_PRIVATE_KEY')
    .option('--retry-for <seconds>', 'how long to send the same signed payment again while the answer is not final', secondsOption('--retry-for'), 30)
    .addHelpText('after', NOTES)
    .action(async (words: string[], flags: PayFlags) => report(await runPay(words, flags, io, env, (flag) => command.getOptionValueSource(flag))));
  return command;
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

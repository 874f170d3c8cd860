// `npm run readme:live`: runs every command of the README (and the generated examples of
// docs/products.md) against a running `npm start`, as a newcomer pastes them, and says which
// printed something other than what the document shows. Start a fresh stack first (the free
// score example is the caller's first free score): `DATA_DIR=$(mktemp -d) npm start`, then
// `npm run readme:live` in another terminal (`-- --url <base>` for another address).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { devAccounts } from '../../facilitator/dev-accounts';
import { DESCRIBED_ANSWERS, differenceFromShown, examplesOf, fillIn, type FillIns, type LiveExample } from './live-examples';

const ROOT = path.resolve(__dirname, '..', '..');
/** The documents whose commands are run: the user's guide, and the page its paid examples link to. */
export const LIVE_FILES = ['README.md', 'docs/products.md'] as const;
// The embedded chain's first funded payer (accounts 0 and 1 settle and receive), as npm start prints it.
const FIRST_FUNDED_ACCOUNT = 2;
const COMMAND_TIMEOUT_MS = 180_000;

/** One command's outcome. */
export interface LiveOutcome {
  example: LiveExample;
  /** undefined when it answered what the document says. */
  failure?: string;
}

function runShell(command: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', command], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), COMMAND_TIMEOUT_MS);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * Runs each document's commands in order against a stack and checks what they print.
 * @param fill - the stack's address, the funded test key and the test USDC
 * @param onOutcome - called after each command (for progress)
 * @returns every command's outcome
 */
export async function runLiveExamples(fill: FillIns, onOutcome: (o: LiveOutcome) => void = () => {}): Promise<LiveOutcome[]> {
  // The CLI's pending payments live in a state folder of their own, so an earlier run's cannot answer for this one.
  const stateDir = mkdtempSync(path.join(tmpdir(), 'humanlike-readme-'));
  const env = { ...process.env, HUMANLIKE_STATE_DIR: stateDir, NO_COLOR: '1' };
  const outcomes: LiveOutcome[] = [];
  try {
    for (const file of LIVE_FILES) {
      for (const example of examplesOf(readFileSync(path.join(ROOT, file), 'utf8'), file)) {
        const outcome = { example, failure: await check(example, fill, env) };
        outcomes.push(outcome);
        onOutcome(outcome);
      }
    }
  } finally {
    rmSync(stateDir, { recursive: true, force: true });
  }
  return outcomes;
}

async function check(example: LiveExample, fill: FillIns, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const described = example.shown ? undefined : DESCRIBED_ANSWERS.find((d) => d.calls.test(example.command));
  if (!example.shown && !described) return 'the document shows no answer for it and DESCRIBED_ANSWERS has no check for it';
  const { code, stdout, stderr } = await runShell(fillIn(example.command, fill), env);
  if (code !== 0) return `exited with ${code}: ${(stderr || stdout).trim().slice(0, 400)}`;
  if (example.shown) return differenceFromShown(stdout, example.shown);
  return described!.check(stdout) ? undefined : `expected ${described!.says}; printed ${stdout.trim().slice(0, 400)}`;
}

/**
 * The test USDC a stack's quotes ask for (the address npm start prints).
 * @param url - the stack's base URL
 * @returns the asset of the first x402 offer of a basic session's quote
 */
export async function quotedAsset(url: string): Promise<string> {
  const res = await fetch(`${url.replace(/\/$/, '')}/api/simulate`);
  const body = (await res.json()) as { accepts?: Array<{ asset?: string }> };
  const asset = body.accepts?.[0]?.asset;
  if (res.status !== 402 || !asset) throw new Error(`GET ${url}/api/simulate answered ${res.status} without an x402 offer: is npm start running there?`);
  return asset;
}

async function main(): Promise<void> {
  const urlAt = process.argv.indexOf('--url');
  const url = urlAt > 0 ? process.argv[urlAt + 1] : 'http://localhost:3000';
  const privateKey = process.env.HUMANLIKE_PRIVATE_KEY ?? devAccounts()[FIRST_FUNDED_ACCOUNT].privateKey;
  const asset = await quotedAsset(url);
  process.stdout.write(`Running the documents' commands against ${url} (test USDC ${asset})\n`);
  const outcomes = await runLiveExamples({ url, privateKey, asset }, ({ example, failure }) => {
    process.stdout.write(`${failure ? 'FAIL' : 'ok  '} ${example.where}  ${example.command.split('\n')[0].slice(0, 90)}\n`);
    if (failure) process.stdout.write(`     ${failure}\n`);
  });
  const failed = outcomes.filter((o) => o.failure).length;
  process.stdout.write(`${outcomes.length - failed} of ${outcomes.length} commands answered what the documents show\n`);
  if (failed) process.exitCode = 1;
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`readme:live failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
}

import { payCommand } from './commands/pay.command';
import { profilesCommand } from './commands/profiles.command';
import { scoreCommand } from './commands/score.command';
import { CliUsageError, type CliIo } from './io';

export const HELP = `humanlike - score how human an AI agent's reply reads, against 28 human profiles

Usage:
  humanlike profiles [--json]
  humanlike score --profile ID [--delay SECONDS] [--incoming TEXT] [--deep] [--json] [TEXT | -]
  humanlike score --jsonl < replies.jsonl > scores.jsonl
  humanlike pay --profile ID [--url URL] [--delay SECONDS] [--incoming TEXT] [--deep] [--json]
                [--max-amount UNITS] [--asset TOKEN [--network CAIP2]] [--idempotency-key KEY]
                [--key-file PATH] [TEXT | -]

score:
  --profile ID      a profile id (see "humanlike profiles"), or "all" for every profile
  --delay SECONDS   seconds the agent waited before replying (enables the timing check)
  --incoming TEXT   the message being answered (attunement, directness, reading time)
  --deep            contributions, evidence and prioritized rewrite guidance
  --json            machine-readable output
  --jsonl           read {"id","text","delay_seconds"?,"incoming"?,"target_profile"?} lines
                    from stdin, write one JSON result per line in input order
  TEXT | -          the reply; "-" or nothing reads it from stdin

pay:
  A paid session on a humanlike server (POST /api/simulate, x402 v2): takes the 402 challenge,
  signs its first requirement (EIP-3009 USDC) with HUMANLIKE_PRIVATE_KEY (or --key-file), retries
  the same request once, prints the result and the decoded receipt. A lost answer is replayed with
  the same authorization, never paid twice. --max-amount (default 1000000 = 1 USDC) caps what it signs.
  It pays only in x402 default assets (Base USDC) unless --asset allows another token (the test
  USDC of npm start's development chain, printed at start). --url defaults to http://localhost:3000.

profiles and score run entirely offline: no server, database or network.
`;

/**
 * Runs the CLI.
 * @param argv - arguments after the program name
 * @param io - streams
 * @returns the process exit code (0 ok, 2 usage or input error)
 */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'profiles':
        return await profilesCommand(rest, io);
      case 'score':
        return await scoreCommand(rest, io);
      case 'pay':
        return await payCommand(rest, io);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        io.stdout.write(HELP);
        return 0;
      default:
        throw new CliUsageError(`unknown command "${command}"; try "humanlike --help"`);
    }
  } catch (err) {
    // parseArgs throws TypeErrors with codes like ERR_PARSE_ARGS_UNKNOWN_OPTION for bad flags.
    const code = (err as { code?: string }).code ?? '';
    if (err instanceof CliUsageError || code.startsWith('ERR_PARSE_ARGS')) {
      // One line, always: parseArgs messages span several lines.
      io.stderr.write(`humanlike: ${(err as Error).message.replace(/\s*\n\s*/g, ' ')}\n`);
      return 2;
    }
    throw err;
  }
}

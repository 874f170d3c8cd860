import { createInterface } from 'node:readline';
import { Command } from 'commander';
import { scoreText, ScoringInputError, type ScoreInput, type ScoreResult } from '../../shared/scoring';
import { renderScore } from '../format';
import { CliUsageError, readAll, type CliIo } from '../io';
import { secondsOption } from '../options';

/** The parsed flags of `humanlike score`. */
interface ScoreFlags {
  profile?: string;
  delay?: number;
  incoming?: string;
  deep: boolean;
  json: boolean;
  jsonl: boolean;
}

const NOTES = `
--jsonl reads {"id","text","delay_seconds"?,"incoming"?,"target_profile"?} lines from stdin and
writes one JSON result per line, in input order; a bad line yields {"id","error","code"}.
Runs entirely offline: no server, database or network. Exit status: 0 ok, 2 bad arguments or input.

Examples:
  humanlike score --profile terse-senior-engineer --delay 12 "DATABASE_URL. Set it in CI."
  echo "Certainly! I hope this helps!" | humanlike score --profile all --deep --json -
  humanlike score --jsonl < replies.jsonl > scores.jsonl`;

/** The JSON-lines record of one scored input (the --jsonl contract). */
export function jsonlRecord(id: unknown, r: ScoreResult): Record<string, unknown> {
  const res = r.result;
  const dimensions: Record<string, unknown> = {};
  for (const dim of ['empathy', 'formality', 'directness', 'hesitation'] as const) {
    const d = res?.dimensions[dim];
    dimensions[dim] = d ? { measured: d.measured, target: d.target, delta: d.delta, fit: d.fit } : { measured: r.measures[dim] };
  }
  if (res?.dimensions.timing) {
    const t = res.dimensions.timing;
    dimensions.timing = { measured: t.measured, expected: t.expected, window: t.window, fit: t.fit, superhuman: t.superhuman };
  }
  return {
    id,
    scorer_version: r.scorer_version,
    human_likeness: r.human_likeness,
    ...(res ? { eq_score: res.eq_score, passed: res.passed } : {}),
    dimensions,
    signals: res ? res.signals : r.signals,
  };
}

function inputFromLine(line: string): { id: unknown; input: ScoreInput } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    throw Object.assign(new CliUsageError('line is not valid JSON'), { id: null });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw Object.assign(new CliUsageError('line must be a JSON object'), { id: null });
  }
  const o = parsed as Record<string, unknown>;
  const id = o.id ?? null;
  const fail = (message: string) => Object.assign(new CliUsageError(message), { id });
  if (typeof o.text !== 'string') throw fail('"text" must be a string');
  if (o.delay_seconds !== undefined && typeof o.delay_seconds !== 'number') throw fail('"delay_seconds" must be a number');
  if (o.incoming !== undefined && typeof o.incoming !== 'string') throw fail('"incoming" must be a string');
  if (o.target_profile !== undefined && typeof o.target_profile !== 'string') throw fail('"target_profile" must be a string');
  return {
    id,
    input: {
      text: o.text,
      delaySeconds: o.delay_seconds as number | undefined,
      incoming: o.incoming as string | undefined,
      profile: o.target_profile as string | undefined,
    },
  };
}

async function scoreJsonl(io: CliIo): Promise<number> {
  const lines = createInterface({ input: io.stdin, crlfDelay: Infinity });
  let out = '';
  for await (const line of lines) {
    if (line.trim() === '') continue;
    let record: Record<string, unknown>;
    try {
      const { id, input } = inputFromLine(line);
      try {
        record = jsonlRecord(id, scoreText(input));
      } catch (err) {
        if (err instanceof ScoringInputError) record = { id, error: err.message, code: err.code };
        else throw err;
      }
    } catch (err) {
      if (!(err instanceof CliUsageError)) throw err;
      record = { id: (err as CliUsageError & { id?: unknown }).id ?? null, error: err.message, code: 'invalid_line' };
    }
    out += JSON.stringify(record) + '\n';
    // Write in batches: one write per line costs more than scoring on large inputs.
    if (out.length > 64 * 1024) {
      if (!io.stdout.write(out)) await new Promise((resolve) => io.stdout.once('drain', resolve));
      out = '';
    }
  }
  if (out) io.stdout.write(out);
  return 0;
}

async function scoreOne(words: string[], flags: ScoreFlags, io: CliIo): Promise<number> {
  if (flags.jsonl) return scoreJsonl(io);
  if (words.length > 1) throw new CliUsageError('give the reply as one quoted argument, or "-" to read stdin');
  const text = words.length === 0 || words[0] === '-' ? await readAll(io.stdin) : words[0];
  const input: ScoreInput = { text, delaySeconds: flags.delay, incoming: flags.incoming, profile: flags.profile, deep: flags.deep };
  let result: ScoreResult;
  try {
    result = scoreText(input);
  } catch (err) {
    if (err instanceof ScoringInputError) throw new CliUsageError(`${err.code}: ${err.message}`);
    throw err;
  }
  io.stdout.write(flags.json ? JSON.stringify(result) + '\n' : renderScore(result, io.color));
  return 0;
}

/**
 * Defines `humanlike score`: scores one reply (argument or stdin) or, with --jsonl, one per input line.
 * @param io - streams
 * @param report - receives the exit code
 * @returns the command
 */
export function createScoreCommand(io: CliIo, report: (code: number) => void): Command {
  return new Command('score')
    .description("score how human one reply reads, offline (or one per line with --jsonl)")
    .argument('[text...]', 'the reply, as one quoted argument; "-" or nothing reads it from stdin')
    .option('--profile <id>', 'a profile id (see "humanlike profiles"), or "all" for every profile')
    .option('--delay <seconds>', 'seconds the agent waited before replying (enables the timing check)', secondsOption('--delay'))
    .option('--incoming <text>', 'the message being answered (attunement, directness, reading time)')
    .option('--deep', 'contributions, evidence and prioritized rewrite guidance', false)
    .option('--json', 'machine-readable output', false)
    .option('--jsonl', 'score JSON lines from stdin, one result line each', false)
    .addHelpText('after', NOTES)
    .action(async (words: string[], flags: ScoreFlags) => report(await scoreOne(words, flags, io)));
}

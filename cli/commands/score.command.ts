import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { scoreText, ScoringInputError, type ScoreInput, type ScoreResult } from '../../shared/scoring';
import { renderScore } from '../format';
import { CliUsageError, readAll, type CliIo } from '../io';

const OPTIONS = {
  profile: { type: 'string' },
  delay: { type: 'string' },
  incoming: { type: 'string' },
  deep: { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
  jsonl: { type: 'boolean', default: false },
} as const;

function parseDelay(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const d = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(d)) throw new CliUsageError(`--delay must be a number of seconds, got "${raw}"`);
  return d;
}

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

/**
 * `humanlike score`: scores one reply (argument or stdin) or, with --jsonl, one per input line.
 * @param args - arguments after the command name
 * @param io - streams
 * @returns the exit code
 */
export async function scoreCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  if (values.jsonl) return scoreJsonl(io);
  if (positionals.length > 1) throw new CliUsageError('give the reply as one quoted argument, or "-" to read stdin');
  const text = positionals.length === 0 || positionals[0] === '-' ? await readAll(io.stdin) : positionals[0];
  const input: ScoreInput = {
    text,
    delaySeconds: parseDelay(values.delay),
    incoming: values.incoming,
    profile: values.profile,
    deep: values.deep,
  };
  let result: ScoreResult;
  try {
    result = scoreText(input);
  } catch (err) {
    if (err instanceof ScoringInputError) throw new CliUsageError(`${err.code}: ${err.message}`);
    throw err;
  }
  io.stdout.write(values.json ? JSON.stringify(result) + '\n' : renderScore(result, io.color));
  return 0;
}

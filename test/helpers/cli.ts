import { PassThrough } from 'node:stream';
import { main } from '../../cli/main';

/** What a CLI run printed and returned. */
export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/**
 * Runs the `humanlike` CLI in this process with captured output and no terminal colours.
 * @param argv - the arguments after the program name
 * @param env - the environment it sees: a database URL alone, or a whole environment
 * @returns its exit code, standard output and standard error
 */
export async function runCli(argv: string[], env: string | NodeJS.ProcessEnv): Promise<CliRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  const code = await main(argv, { stdin: new PassThrough(), stdout, stderr, color: false }, typeof env === 'string' ? { DATABASE_URL: env } : env);
  return { code, out, err };
}

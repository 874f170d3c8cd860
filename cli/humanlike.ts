#!/usr/bin/env node
import { main } from './main';

// A reader that stops early (`humanlike profiles | head -1`) is not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
  process.exit(process.exitCode ?? 0);
});

main(
  process.argv.slice(2),
  {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR,
  },
  process.env,
).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`humanlike: internal error: ${(err as Error).stack ?? String(err)}\n`);
    process.exitCode = 1;
  },
);

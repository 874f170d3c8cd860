#!/usr/bin/env node
import { main } from './main';

main(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR,
}).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`humanlike: internal error: ${(err as Error).stack ?? String(err)}\n`);
    process.exitCode = 1;
  },
);

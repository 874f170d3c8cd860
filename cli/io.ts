import type { Readable, Writable } from 'node:stream';

/** The streams a command talks to; injected so tests can run commands in-process. */
export interface CliIo {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  /** Colors only on a terminal, and never with NO_COLOR set. */
  color: boolean;
}

/** A usage or input problem: printed as one line, exit code 2. */
export class CliUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliUsageError';
    Object.setPrototypeOf(this, CliUsageError.prototype);
  }
}

/** Reads a whole stream as UTF-8 text. */
export async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

import { CommanderError, type Command } from 'commander';
import { CliUsageError, type CliIo } from './io';

// Commander's ways of saying "help (or the version) was shown" (`help` is also used, with exit
// code 1, for help shown on stderr instead of an error message).
function shown(err: CommanderError): boolean {
  return err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || (err.code === 'commander.help' && err.exitCode === 0);
}

function oneLine(text: string): string {
  return text
    .replace(/^error:\s*/, '')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
}

function fullName(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/**
 * Makes a command and its subcommands talk to the injected streams, throw instead of exiting,
 * and print a parse error as the one line the CLI promises, naming that command's `--help`.
 * @param command - the root of the tree to prepare
 * @param io - streams
 */
function prepare(command: Command, io: CliIo): void {
  command.exitOverride();
  command.configureOutput({
    writeOut: (text) => io.stdout.write(text),
    writeErr: (text) => io.stderr.write(text),
    getOutHasColors: () => io.color,
    getErrHasColors: () => false,
    outputError: (text) => io.stderr.write(`humanlike: ${oneLine(text)} (see "${fullName(command)} --help")\n`),
  });
  for (const sub of command.commands) prepare(sub, io);
}

/**
 * Parses `argv` with a commander program and runs the chosen action. Every way it can end becomes
 * an exit code: 0 after help, 2 for a usage or input error (one line on stderr), else what the
 * action reported.
 * @param program - the program (its actions report their exit code through `exitCode`)
 * @param argv - the user's arguments
 * @param io - streams
 * @param exitCode - read after the action ran
 * @returns the process exit code
 */
export async function runCommand(program: Command, argv: string[], io: CliIo, exitCode: () => number): Promise<number> {
  prepare(program, io);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode();
  } catch (err) {
    if (err instanceof CommanderError) return shown(err) ? 0 : 2; // commander already printed it
    if (err instanceof CliUsageError) {
      io.stderr.write(`humanlike: ${oneLine(err.message)}\n`);
      return 2;
    }
    throw err;
  }
}

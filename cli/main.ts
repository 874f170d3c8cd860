import { Command } from 'commander';
import { createAdminCommand } from './commands/admin.command';
import { createPayCommand } from './commands/pay.command';
import { createProfilesCommand } from './commands/profiles.command';
import { createScoreCommand } from './commands/score.command';
import type { CliIo } from './io';
import { runCommand } from './run-command';

const NOTES = `
profiles and score run entirely offline: no server, database or network. "humanlike <command>
--help" shows each command's flags. Exit status: 0 ok, 1 a failed (paid) call, 2 bad arguments or input.`;

/**
 * Builds the `humanlike` program: its commands, flags and help.
 * @param io - streams
 * @param env - environment (read by `pay` and `admin` only)
 * @param report - receives the exit code of the command that ran
 * @returns the program
 */
export function createProgram(io: CliIo, env: NodeJS.ProcessEnv, report: (code: number) => void): Command {
  return new Command('humanlike')
    .description("score how human an AI agent's reply reads, against 28 human profiles")
    .addCommand(createProfilesCommand(io, report))
    .addCommand(createScoreCommand(io, report))
    .addCommand(createPayCommand(io, env, report))
    .addCommand(createAdminCommand(io, env, report))
    .addHelpText('after', NOTES);
}

/**
 * Runs the CLI.
 * @param argv - arguments after the program name
 * @param io - streams
 * @param env - environment (the paying key and the state directory of `pay`)
 * @returns the process exit code (0 ok, 1 a failed call, 2 usage or input error)
 */
export async function main(argv: string[], io: CliIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let code = 0;
  const program = createProgram(io, env, (c) => (code = c));
  // Bare `humanlike` is a request for help, not a mistake.
  return runCommand(program, argv.length === 0 ? ['--help'] : argv, io, () => code);
}

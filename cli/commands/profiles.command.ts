import { Command } from 'commander';
import { PROFILES } from '../../shared/profiles';
import type { CliIo } from '../io';
import { paint } from '../format';

function listProfiles(json: boolean, io: CliIo): number {
  if (json) {
    io.stdout.write(JSON.stringify(PROFILES.map((p) => ({ id: p.id, name: p.name, description: p.description, targets: p.targets, tempo: p.tempo, typical_words: p.typicalWords }))) + '\n');
    return 0;
  }
  const lines = PROFILES.map(
    (p) =>
      `${paint(io.color, 'bold', p.id.padEnd(30))} emp ${p.targets.empathy.toFixed(2)} form ${p.targets.formality.toFixed(2)} dir ${p.targets.directness.toFixed(2)} hes ${p.targets.hesitation.toFixed(2)}  ${paint(io.color, 'dim', p.description)}`,
  );
  io.stdout.write(lines.join('\n') + '\n');
  return 0;
}

/**
 * Defines `humanlike profiles [--json]`: lists the 28 profiles.
 * @param io - streams
 * @param report - receives the exit code
 * @returns the command
 */
export function createProfilesCommand(io: CliIo, report: (code: number) => void): Command {
  return new Command('profiles')
    .description('list the 28 human profiles and their targets')
    .option('--json', 'machine-readable output', false)
    .action((flags: { json: boolean }) => report(listProfiles(flags.json, io)));
}

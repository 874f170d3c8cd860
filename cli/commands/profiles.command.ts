import { parseArgs } from 'node:util';
import { PROFILES } from '../../shared/profiles';
import type { CliIo } from '../io';
import { paint } from '../format';

/**
 * `humanlike profiles [--json]`: lists the 28 profiles.
 * @param args - arguments after the command name
 * @param io - streams
 */
export async function profilesCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args, options: { json: { type: 'boolean', default: false } }, strict: true });
  if (values.json) {
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

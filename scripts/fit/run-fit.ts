// `npm run fit`: refits every fitted weights file from the development data, one script at a
// time. Each script writes its JSON under shared/scoring/weights/; review the diff, then commit.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

const SCRIPTS = ['fit-formality.ts', 'fit-directness.ts', 'fit-empathy.ts', 'fit-human-likeness.ts'];

for (const script of SCRIPTS) {
  console.log(`== ${script}`);
  execFileSync(process.execPath, ['--import', 'tsx', resolve(__dirname, script)], { stdio: 'inherit' });
}

// The dependency boundaries of style.md section 4, checked by `npm run lint` (run before `npm test`).
// Only the boundaries are enforced here; formatting and style are left to review.
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import tseslint from 'typescript-eslint';
import { readdirSync } from 'node:fs';

// api/ holds one folder per endpoint family, plus the kit below them: api/http (context, middleware,
// shared schema fragments, the OpenAPI builder) and api/payments (the one payment pipeline).
const API_KIT = ['http', 'payments'];
const families = readdirSync(new URL('./api', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory() && !API_KIT.includes(d.name))
  .map((d) => d.name);
const apiEntryFiles = ['./api/app.ts', './api/routes.ts', './api/server.ts'];
const familyZones = families.map((family) => ({
  target: `./api/${family}`,
  from: [...families.filter((other) => other !== family).map((other) => `./api/${other}`), ...apiEntryFiles],
  message: `a family never imports another family or the app's entry files: move what ${family} shares down to api/http, api/payments or shared (style.md section 2).`,
}));

const everyOtherProcess = ['./cli', './supervisor', './facilitator', './card-processor', './scripts', './test'];

export default [
  { ignores: ['dist/**', 'node_modules/**', '.data/**', '.bench/**', '.scratch/**', 'coverage/**'] },
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser, parserOptions: { sourceType: 'module' } },
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })] },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            // shared imports nothing internal beyond itself.
            { target: './shared', from: ['./api', './workers', './jobs', './migrations', ...everyOtherProcess], message: 'shared imports nothing internal (style.md section 4).' },
            // jobs is the contract between api and workers.
            { target: './jobs', from: ['./api', './workers', './migrations', ...everyOtherProcess], message: 'jobs depends on shared only.' },
            // api and workers never import each other.
            { target: './api', from: ['./workers', './migrations', ...everyOtherProcess], message: 'api depends on jobs and shared only.' },
            { target: './workers', from: ['./api', './migrations', ...everyOtherProcess], message: 'workers depend on jobs and shared only.' },
            // The kit sits below the families: it never reaches up into one.
            ...familyZones,
            { target: './api/http', from: [...families.map((f) => `./api/${f}`), './api/payments', ...apiEntryFiles], message: 'api/http is the kit below the families and the pipeline.' },
            { target: './api/payments', from: [...families.map((f) => `./api/${f}`), ...apiEntryFiles], message: 'the payment pipeline serves every family and imports none.' },
            // Threads and the engine stay free of I/O, so threads start cheap and data stays cloneable.
            // The web-side capacity thread of /api/health-capacity is held to the same rules.
            {
              target: ['./shared/scoring', './shared/rewrite', './workers/threads', './api/health/threads'],
              from: ['./shared/db', './shared/redis.ts', './shared/logger.ts', './shared/config.ts', './shared/payments', './shared/http'],
              message: 'the engine and the threads import no db, redis, logger or config.',
            },
            // The script check's matching is pure string and number work, run inside a worker job.
            {
              target: './shared/script-check',
              from: ['./shared/db', './shared/redis.ts', './shared/logger.ts', './shared/config.ts', './shared/payments', './shared/http'],
              message: 'the script-check matching imports no db, redis, logger or config.',
            },
            // A migration stays frozen while the model changes.
            { target: './migrations', from: ['./api', './workers', './jobs', './shared', ...everyOtherProcess], message: 'migrations import only typeorm.' },
            // The facilitator and the CLI are their own programs over shared code.
            { target: './facilitator', from: ['./api', './workers', './jobs', './cli', './supervisor', './scripts', './test'], message: 'the facilitator depends on shared only.' },
            { target: './card-processor', from: ['./api', './workers', './jobs', './cli', './supervisor', './facilitator', './scripts', './test'], message: 'the local card processor depends on shared only.' },
            { target: './cli', from: ['./api', './workers', './jobs', './facilitator', './supervisor', './scripts', './test'], message: 'the CLI depends on shared only.' },
            // The browser component and the host adapter run on a company's host, not in this service.
            { target: './embed', from: ['./api', './workers', './jobs', './shared', './migrations', ...everyOtherProcess], message: 'the embed package runs on the host: it imports nothing of the service.' },
          ],
        },
      ],
    },
  },
  {
    files: ['api/**/*.ts'],
    ignores: ['api/http/create-router.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Router']",
          message: 'make routers with createRouter (api/http/create-router.ts): every route matches exactly, as the operator guard and the body parser compare paths.',
        },
      ],
    },
  },
];

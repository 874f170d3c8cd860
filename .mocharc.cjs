// One mocha config for every suite; TypeScript runs through tsx, no build step needed.
// `npx mocha <file>...` runs just those files: a spec here would be added to them, not replaced.
const named = process.argv.slice(2).some((arg) => /\.test\.ts$/.test(arg));
module.exports = {
  'node-option': ['import=tsx'],
  extension: ['ts'],
  ...(named ? {} : { spec: ['test/**/*.test.ts'] }),
  timeout: 20000,
  reporter: 'dot',
};

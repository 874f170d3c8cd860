// One mocha config for every suite; TypeScript runs through tsx, no build step needed.
module.exports = {
  'node-option': ['import=tsx'],
  extension: ['ts'],
  spec: ['test/**/*.test.ts'],
  timeout: 20000,
  reporter: 'dot',
};

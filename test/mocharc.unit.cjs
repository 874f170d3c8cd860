// Unit suites only (no network): `npm run test:unit`. A separate config because mocha adds
// --spec arguments to the config's spec instead of replacing it.
module.exports = { ...require('../.mocharc.cjs'), spec: ['test/unit/**/*.test.ts'] };

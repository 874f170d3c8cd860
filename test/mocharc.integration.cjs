// Integration suites only (real Redis and PostgreSQL): `npm run test:integration`.
module.exports = { ...require('../.mocharc.cjs'), spec: ['test/integration/**/*.test.ts'] };

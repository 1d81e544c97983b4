/**
 * `npm run test:resilience`: the built processes (dist/) as separate processes: fault injection
 * (stack-faults.resilience.ts, on its own embedded PostgreSQL) and traces across them (traces.resilience.ts, on a
 * database of its own: on the server DATABASE_URL names, else embedded). No global setup.
 */
const root = require('../../jest.config.js');

module.exports = {
  rootDir: '../..',
  testEnvironment: 'node',
  roots: ['<rootDir>/test/resilience'],
  testMatch: ['**/*.resilience.ts'],
  moduleNameMapper: root.moduleNameMapper,
  transform: root.transform,
  transformIgnorePatterns: root.transformIgnorePatterns,
  setupFiles: ['reflect-metadata'],
  testTimeout: 180_000,
  // Two files at once: each has its own database, servers and ports (freePort), and most of their time is waiting
  // (boots, drains, failovers); all 32 pass so on a loaded 2-core machine, in 7 minutes instead of 11.5.
  maxWorkers: 2,
};

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
  // (boots, drains, failovers). Except the two that run twelve processes (two copies of every tier, the rolling
  // restart): `npm run test:resilience` runs them after the others, one at a time (package.json) — beside them another
  // file's stack missed its limits on a 2-core CI machine (the database-loss baseline, npm start's health wait).
  maxWorkers: 2,
};

/**
 * `npm run test:resilience`: the fault-injection run (stack-faults.resilience.ts). It starts its own embedded
 * PostgreSQL and the built processes (dist/), so it has no global setup and never touches the shared server.
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
  maxWorkers: 1,
};

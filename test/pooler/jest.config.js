/**
 * The bank and point-of-sale end-to-end suites again, every subgraph pool through a real PgBouncer in transaction
 * mode (test/pooler/global-setup.ts); in `.ci/run` after `npm test`.
 */
const root = require('../../jest.config.js');

module.exports = {
  ...root,
  rootDir: '../..',
  roots: ['<rootDir>/test/pooler'],
  testMatch: ['**/*.pooler.ts'],
  globalSetup: '<rootDir>/test/pooler/global-setup.ts',
  globalTeardown: '<rootDir>/test/pooler/global-teardown.ts',
};

/** Jest runs TypeScript through @swc/jest (decorators and their metadata included) against real PostgreSQL. */
const swc = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs', ignoreDynamic: true },
};

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/lib', '<rootDir>/subgraphs', '<rootDir>/rest-adapters', '<rootDir>/gateway'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', swc],
    // cookie 2 (pulled in by fastify.inject) is ESM-only; Jest on Node 20 needs it transformed.
    'node_modules/cookie/.+\\.js$': ['@swc/jest', swc],
  },
  transformIgnorePatterns: ['/node_modules/(?!cookie/)'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 30000,
  maxWorkers: 2,
};

/** Jest runs TypeScript through @swc/jest (decorators and their metadata included) against real PostgreSQL. */
const swc = {
  swcrc: false,
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2022',
    keepClassNames: true,
    // swc rewrites the aliases to relative paths, as in the build; this also covers the global setup, which
    // jest loads outside its module registry (moduleNameMapper does not apply there).
    baseUrl: __dirname,
    paths: require('./tsconfig.json').compilerOptions.paths,
  },
  module: { type: 'commonjs', ignoreDynamic: true },
};

const ESM_ONLY = [
  'cookie',
  'content-disposition',
  '@apidevtools/json-schema-ref-parser',
  'jose',
  'uuid',
  'csv-parse',
  'auto-bind',
  'graphile-worker',
  'kubernetes-models',
  '@kubernetes-models',
  'is-cidr',
  'cidr-regex',
  'puppeteer-core',
  '@puppeteer/browsers',
  'chromium-bidi',
];

/** The path aliases of tsconfig.json (`@lib/…`, `@subgraphs/…`, …), one per top-level folder. */
const ALIASES = ['lib', 'test', 'gateway', 'subgraphs', 'rest-adapters', 'scripts', 'bench'];
/**
 * kubernetes-models and its packages export to `import` only, which Jest's resolver (CommonJS conditions) does not
 * follow: their files by path (test/contracts/kubernetes.spec.ts).
 */
const KUBERNETES_MODELS = {
  '^kubernetes-models/(.*)$': '<rootDir>/node_modules/kubernetes-models/$1',
  '^@kubernetes-models/(base|validate)$': '<rootDir>/node_modules/@kubernetes-models/$1/dist/index.js',
  '^@kubernetes-models/validate/runtime/(.*)$': '<rootDir>/node_modules/@kubernetes-models/validate/dist/runtime/$1',
  '^@kubernetes-models/apimachinery/(.*)$': '<rootDir>/node_modules/@kubernetes-models/apimachinery/$1',
};
const moduleNameMapper = {
  ...Object.fromEntries(ALIASES.map((dir) => [`^@${dir}(/.*)?$`, `<rootDir>/${dir}$1`])),
  ...KUBERNETES_MODELS,
};

module.exports = {
  moduleNameMapper,
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/lib', '<rootDir>/subgraphs', '<rootDir>/rest-adapters', '<rootDir>/gateway'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', swc],
    // ESM-only packages (cookie 2 via fastify.inject, content-disposition via the docs page, the OpenAPI validator's ref parser, jose, uuid,
    // csv-parse, auto-bind via graphql-codegen, graphile-worker, kubernetes-models and its dependencies, test/contracts/kubernetes.spec.ts): Node 24 loads them with require(esm), but Jest's own module loader
    // cannot require them, so they are transformed to CommonJS too.
    [`node_modules/(${ESM_ONLY.join('|')})/.+\\.js$`]: ['@swc/jest', swc],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY.join('|')})/)`],
  setupFiles: ['reflect-metadata'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testSequencer: '<rootDir>/test/support/sequencer.js',
  // At the end a worker's event loop drains in milliseconds, but Node then frees its heap (2.2-2.3 GB after a full
  // run) for longer than Jest's default 500 ms, and Jest killed it and warned of a leak that was not there
  // (docs/benchmarks.md, "The test suite"). A worker that really hangs is still killed and reported, after 10 s.
  workerGracefulExitTimeout: 10_000,
  // A worker whose heap is past 1 GB after a file is replaced by a fresh one: a heap grown by earlier files' stacks made
  // every later collection slower (docs/benchmarks.md, "The test suite").
  workerIdleMemoryLimit: '1GB',
  // A test file's beforeAll starts a whole stack (four subgraphs, gateway with warmed query plans, REST): seconds on an
  // idle machine, but past 30 s on a loaded 2-core CI runner (seen twice); 60 s keeps that from failing a green run.
  testTimeout: 60000,
  maxWorkers: 2,
};

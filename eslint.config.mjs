// ESLint: type-aware typescript-eslint rules plus the rules that keep the architecture (docs/decisions/0014-node-dependencies-and-lint.md).
// Style is Prettier's job (eslint-config-prettier turns the overlapping rules off). `npm run lint` runs both at zero warnings.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

const SUBGRAPHS = ['merchant', 'outlet', 'transaction', 'catalog'];
const deepRelative = {
  group: ['../../*'],
  message: 'Use a path alias (@lib/…, @subgraphs/…, @rest-adapters/…, @gateway/…, @scripts/…, @test/…, @bench/…).',
};
const testSupport = { group: ['@test/*', '@test'], message: 'Only tests import test support.' };
const libOutward = {
  group: ['@rest-adapters', '@rest-adapters/*', '@subgraphs', '@subgraphs/*', '@gateway/*', '**/rest-adapters/*', '**/subgraphs/*'],
  message: 'lib/ never imports the adapters, subgraphs or gateway.',
};
const libDomain = {
  group: ['@lib/domain/*', '**/domain/*'],
  message: 'lib/ infrastructure never imports lib/domain/: it serves any domain (lib/README.md).',
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.data/**', '**/generated/**', 'coverage/**', '**/*.js', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  prettier,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Promises: every one is awaited, returned or explicitly detached with `void` where fire-and-forget is meant.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      // GraphQL resolvers, JSON bodies and third-party callbacks carry `any` at the edges; tsc's strict mode and
      // the generated operation types guard the rest. These rules would flag every such edge, not real defects.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      // type-graphql resolvers and fastify hooks are `async` by contract even when they do not await.
      '@typescript-eslint/require-await': 'off',
      // tsc (noUnusedLocals/Parameters) already reports these.
      '@typescript-eslint/no-unused-vars': 'off',
      // Its generic-inference check flags every typed knex result, and its fixer changed inferred types (tsc failed
      // after `--fix`); tsc's strict mode covers the assertions that matter.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      'no-restricted-imports': ['error', { patterns: [deepRelative, testSupport] }],
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read the environment in lib/config/config.ts only.' },
      ],
    },
  },
  // One subgraph never imports another's code (they link by entity references only).
  ...SUBGRAPHS.map((name) => ({
    files: [`subgraphs/${name}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            deepRelative,
            testSupport,
            {
              group: SUBGRAPHS.filter((other) => other !== name).flatMap((other) => [`@subgraphs/${other}/*`, `**/${other}/src/*`]),
              message: 'A subgraph never imports another subgraph: link by entity references.',
            },
          ],
        },
      ],
    },
  })),
  // lib/ knows nothing of the adapters, the subgraphs or the gateway; its infrastructure knows nothing of the shared
  // domain in lib/domain/ either (lib/README.md, docs/decisions/0014-node-dependencies-and-lint.md).
  {
    files: ['lib/**/*.ts'],
    ignores: ['lib/domain/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [deepRelative, testSupport, libOutward, libDomain] }] },
  },
  // lib/domain/ may use the infrastructure; so may, as the one exception, the OpenAPI document's parts (its example of
  // the point-of-sale merchant header is the demo merchant).
  {
    files: ['lib/domain/**/*.ts', 'lib/rest/openapi.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [deepRelative, testSupport, libOutward] }] },
  },
  // The gateway knows nothing of the REST adapters' layer: REST runs operations on the gateway's executor, not the
  // other way round (docs/decisions/0009-how-operations-execute.md).
  {
    files: ['gateway/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            deepRelative,
            testSupport,
            {
              group: ['@lib/rest/*', '@rest-adapters', '@rest-adapters/*'],
              message: 'gateway/ never imports lib/rest or the REST adapters.',
            },
          ],
        },
      ],
    },
  },
  // Tests may import test support; the environment is theirs to set up.
  {
    files: ['test/**/*.ts', '**/*.test.ts', '**/*.spec.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [deepRelative] }],
      'no-restricted-properties': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  // Reading the environment is these files' job: the config module, and the entry points that pass it on (to children, or to loadConfig).
  // lib/telemetry/register.ts hands the standard OTEL_* variables to the OpenTelemetry SDK, which reads them itself.
  {
    files: [
      'lib/config/**/*.ts',
      'lib/telemetry/register.ts',
      'scripts/start.ts',
      'scripts/ops.ts',
      'scripts/image-boot.ts',
      'scripts/kubernetes-boot.ts',
      'bench/**/*.ts',
    ],
    rules: { 'no-restricted-properties': 'off' },
  },
);

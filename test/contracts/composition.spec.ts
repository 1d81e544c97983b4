import { readFileSync } from 'node:fs';
import { parse } from 'graphql';
import {
  APP_OPERATIONS_DIR,
  OPERATIONS_FILE,
  SUPERGRAPH_FILE,
  TRUSTED_DOCUMENTS_FILE,
  collectOperations,
  composeSupergraph,
  operationsManifest,
  trustedDocumentsManifest,
  validateOperations,
} from '@lib/federation/compose';
import { SUBGRAPHS } from '@subgraphs';

const STALE = 'is stale: run `npm run compose` and commit the result';

describe('composition (supergraph.yaml → subgraph SDL → supergraph)', () => {
  let composition: Awaited<ReturnType<typeof composeSupergraph>>;

  beforeAll(async () => {
    composition = await composeSupergraph(SUBGRAPHS);
  });

  it('composes the four subgraphs without errors', () => {
    expect(composition.subgraphs.map((s) => s.name).sort()).toEqual(['catalog', 'merchant', 'outlet', 'transaction']);
  });

  it('has every committed subgraph SDL up to date', () => {
    for (const subgraph of composition.subgraphs) {
      const committed = readFileSync(subgraph.file, 'utf8');
      expect({ file: subgraph.file, sdl: committed }).toEqual({ file: subgraph.file, sdl: subgraph.sdl });
    }
  });

  it(`has the committed supergraph up to date (otherwise it ${STALE})`, () => {
    expect(readFileSync(SUPERGRAPH_FILE, 'utf8')).toBe(composition.supergraphSdl);
  });

  it('exercises federation across all four subgraphs through Merchant', () => {
    const merchant = composition.apiSchema.getType('Merchant') as import('graphql').GraphQLObjectType;
    expect(Object.keys(merchant.getFields())).toEqual(
      expect.arrayContaining(['merchantCode', 'outlets', 'latestTransactions', 'posCategories']),
    );
  });

  it('validates every REST operation document against the composed API schema', () => {
    const operations = collectOperations();
    expect(operations.length).toBeGreaterThanOrEqual(10);
    expect(validateOperations(composition.apiSchema, operations)).toEqual([]);
  });

  it(`has the committed operations manifest up to date (otherwise it ${STALE})`, () => {
    expect(readFileSync(OPERATIONS_FILE, 'utf8')).toBe(operationsManifest(collectOperations()));
  });

  it(`validates the app's operations and has the trusted-document list up to date (otherwise it ${STALE})`, () => {
    const appOperations = collectOperations(APP_OPERATIONS_DIR);
    expect(appOperations.length).toBeGreaterThanOrEqual(10);
    expect(validateOperations(composition.apiSchema, appOperations)).toEqual([]);
    expect(readFileSync(TRUSTED_DOCUMENTS_FILE, 'utf8')).toBe(trustedDocumentsManifest(appOperations));
  });

  it('reports an invalid operation with its file', () => {
    const broken = { name: 'Broken', file: 'x/operation.graphql', document: 'query Broken { provinces { nope } }', sha256: '' };
    expect(validateOperations(composition.apiSchema, [broken])).toEqual([
      expect.stringContaining('x/operation.graphql: Cannot query field "nope"'),
    ]);
    expect(() => parse(broken.document)).not.toThrow();
  });
});

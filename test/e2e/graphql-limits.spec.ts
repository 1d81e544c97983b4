import { readFileSync } from 'node:fs';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { TRUSTED_DOCUMENTS_PATH, sha256Hex } from '@gateway/src/trusted-documents';
import { sessionFor } from '../support/core-auth';
import { codes, gql, operatorHeaders, postGraphQL } from '../support/graphql';
import { type TestStack, startTestStack } from '../support/test-stack';

/** Depth and cost limits (cost reported in extensions), and the trusted-document list enforced for app users. */
describe('GraphQL limits and trusted documents', () => {
  let stack: TestStack;
  let owner: { authorization: string };
  let operator: { authorization: string };
  const documents = (
    JSON.parse(readFileSync(TRUSTED_DOCUMENTS_PATH, 'utf8')) as { documents: { id: string; name: string; document: string }[] }
  ).documents;
  const viewerDocument = documents.find((d) => d.name === 'AppViewer')!;

  beforeAll(async () => {
    stack = await startTestStack(
      { GATEWAY_MAX_DEPTH: '6', GATEWAY_MAX_COST: '500', GATEWAY_TRUSTED_DOCUMENTS_ONLY: 'true' },
      { onlyIn: 'gateway' },
    );
    owner = await sessionFor(stack, DEMO.owner.userId);
    operator = await operatorHeaders(stack, ['support']);
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('refuses an operation deeper than the limit before executing it', async () => {
    const deep = `query($id: String) { merchantSearch(query: $id) { items { outlets { terminals { outlet { terminals { id } } } } } } }`;
    const answer = await gql(stack, deep, { id: DEMO.merchantCode }, operator);
    expect(answer.status).toBe(400);
    expect(answer.data).toBeUndefined();
    expect(answer.errors?.[0].extensions).toEqual(expect.objectContaining({ code: 'QUERY_TOO_DEEP', depth: 7, maxDepth: 6 }));
    const shallow = await gql(
      stack,
      `query($id: String) { merchantSearch(query: $id, first: 1) { items { outlets { terminals { id } } } } }`,
      { id: DEMO.merchantCode },
      operator,
    );
    expect(shallow.errors).toBeUndefined();
  });

  it('reports the cost of every answer and refuses operations above the limit', async () => {
    // The page 1 + items 5 × (1 + outlets (no size argument: 10) × 1) = 56
    const cheap = await gql(
      stack,
      `{ merchantSearch(query: "${DEMO.merchantCode}", first: 5) { items { id outlets { id } } } }`,
      {},
      operator,
    );
    expect(cheap.extensions?.cost).toEqual({ requested: 56, limit: 500 });
    // 1 + 20 × (1 + transactions(first: 30) (1 + edges 30 × (1 + node 1))) = 1 + 20 × 62 = 1241
    const costly = `query($n: Int!) { merchantSearch(first: 20) { items { transactions(first: $n) { edges { node { id } } } } } }`;
    const refused = await gql(stack, costly, { n: 30 }, operator);
    expect(refused.status).toBe(400);
    expect(refused.data).toBeUndefined();
    expect(refused.errors?.[0].extensions).toEqual(
      expect.objectContaining({ code: 'QUERY_TOO_COSTLY', cost: { requested: 1241, limit: 500 } }),
    );
    expect(refused.extensions?.cost).toEqual({ requested: 1241, limit: 500 });
    const allowed = await gql(stack, costly, { n: 5 }, operator);
    expect(allowed.errors).toBeUndefined();
    expect(allowed.extensions?.cost).toEqual({ requested: 1 + 20 * (1 + 1 + 5 * 2), limit: 500 });
  });

  it('app users run trusted documents only: by documentId, by APQ hash, or by their exact text', async () => {
    const freeForm = await gql(stack, `{ viewer { user { id } } }`, {}, owner);
    expect([freeForm.status, codes(freeForm)]).toEqual([400, ['TRUSTED_DOCUMENT_REQUIRED']]);
    const anonymous = await gql(stack, `{ provinces { id } }`);
    expect(codes(anonymous)).toEqual(['TRUSTED_DOCUMENT_REQUIRED']);

    expect(viewerDocument.id).toBe(sha256Hex(viewerDocument.document));
    const byId = await postGraphQL(stack, { documentId: `sha256:${viewerDocument.id}` }, owner);
    expect(byId.data.viewer.merchant.id).toBe(DEMO.merchantId);
    const byHash = await postGraphQL(stack, { extensions: { persistedQuery: { version: 1, sha256Hash: viewerDocument.id } } }, owner);
    expect(byHash.data.viewer.merchant.id).toBe(DEMO.merchantId);
    const byText = await postGraphQL(stack, { query: viewerDocument.document }, owner);
    expect(byText.data.viewer.merchant.id).toBe(DEMO.merchantId);
    const provinces = documents.find((d) => d.name === 'AppProvinces')!;
    const anonymousTrusted = await postGraphQL(stack, { documentId: provinces.id });
    expect(anonymousTrusted.data.provinces.length).toBeGreaterThan(0);

    const unknown = await postGraphQL(stack, { documentId: 'sha256:' + '0'.repeat(64) }, owner);
    expect([unknown.status, codes(unknown)]).toEqual([400, ['PERSISTED_QUERY_NOT_FOUND']]);
    const mismatch = await postGraphQL(
      stack,
      { query: '{ viewer { user { id } } }', extensions: { persistedQuery: { version: 1, sha256Hash: viewerDocument.id } } },
      owner,
    );
    expect([mismatch.status, codes(mismatch)]).toEqual([400, ['PERSISTED_QUERY_NOT_FOUND']]);
  });

  it('operators and the REST adapters (service principals) may send free-form operations', async () => {
    const free = await gql(stack, `{ banks { code } }`, {}, operator);
    expect(free.errors).toBeUndefined();
    const rest = await stack.rest.inject({ method: 'GET', url: '/references/provinces' });
    expect(rest.statusCode).toBe(200);
  });
});

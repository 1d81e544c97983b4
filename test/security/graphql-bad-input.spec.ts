import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { PRINCIPAL_HEADER, signPrincipal } from '@lib/auth/principal';
import { issueServiceToken } from '@lib/auth/service-token';
import { loadConfig } from '@lib/config/config';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { createGatewayApp } from '@gateway/src/app';
import { sessionFor } from '../support/core-auth';
import { type GraphQLAnswer, gql } from '../support/graphql';
import { PRODUCTION_ENV } from '../support/production-env';
import { type TestStack, startTestStack } from '../support/test-stack';

/**
 * Values a custom scalar refuses (a bad DateTime, "yesterday", a NUL for a SafeInt), written in the document or sent
 * as variables, are the caller's input: BAD_USER_INPUT naming the argument or variable, never an internal error; in
 * production no validation error suggests a field name.
 */
describe('GraphQL: invalid scalar values are BAD_USER_INPUT', () => {
  let stack: TestStack;
  let owner: { authorization: string };

  beforeAll(async () => {
    stack = await startTestStack();
    owner = await sessionFor(stack, DEMO.owner.userId);
  });
  afterAll(async () => {
    await stack?.close();
  });

  function expectRefused(answer: GraphQLAnswer, names: RegExp): void {
    expect(answer.data ?? null).toBeNull();
    expect(answer.errors).toHaveLength(1);
    expect(answer.errors![0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(answer.errors![0].message).toMatch(names);
  }

  it.each([
    ['a month 13 in a literal', '{ posSalesOrders(from: "2026-13-45T99:00:00Z") { id } }', {}, /Argument "from".*DateTime/],
    [
      'a month 13 in a variable',
      'query($f: DateTime) { posSalesOrders(from: $f) { id } }',
      { f: '2026-13-45T99:00:00Z' },
      /Variable "\$f".*DateTime/,
    ],
    [
      '"yesterday" in a literal',
      `{ merchant(id: "${DEMO.merchantId}") { transactions(from: "yesterday") { edges { node { id } } } } }`,
      {},
      /Argument "from".*DateTime/,
    ],
    [
      '"yesterday" in a variable',
      `query($f: DateTime) { merchant(id: "${DEMO.merchantId}") { transactions(from: $f) { edges { node { id } } } } }`,
      { f: 'yesterday' },
      /Variable "\$f".*DateTime/,
    ],
    ['a NUL in a literal', '{ cities(provinceId: "\\u0000") { id } }', {}, /Argument "provinceId".*SafeInt/],
    ['a NUL in a variable', 'query($p: SafeInt!) { cities(provinceId: $p) { id } }', { p: '\u0000' }, /Variable "\$p"/],
    [
      'an integer beyond SafeInt in a variable',
      'query($p: SafeInt!) { cities(provinceId: $p) { id } }',
      { p: 2 ** 60 },
      /Variable "\$p".*SafeInt/,
    ],
  ])('%s', async (_label, query, variables, names) => {
    expectRefused(await gql(stack, query, variables, owner), names);
  });

  it('still answers valid values of the same scalars', async () => {
    const answer = await gql(
      stack,
      'query($f: DateTime) { posSalesOrders(from: $f, limit: 1) { id } cities(provinceId: 31) { id } }',
      { f: '2026-01-01T00:00:00Z' },
      owner,
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data.cities.length).toBeGreaterThan(0);
  });

  it('a subgraph answering 400 with a validation error is BAD_USER_INPUT with its message', async () => {
    // A subgraph that refuses what the gateway let through (e.g. a scalar it parses more strictly).
    const refusal = {
      errors: [{ message: 'Expected value of type "SafeInt!", found 31; not today', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }],
    };
    const subgraph = createServer((_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify(refusal));
    });
    await new Promise<void>((resolve) => subgraph.listen(0, '127.0.0.1', resolve));
    const gateway = await createGatewayApp({
      config: stack.config,
      logStream: { write: () => undefined },
      subgraphs: {
        transport: 'http',
        urls: {
          ...stack.subgraphUrls(),
          merchant: `http://127.0.0.1:${(subgraph.address() as AddressInfo).port}/graphql`,
        },
      },
      warmUp: false,
    });
    try {
      const answer = await gateway.inject({ method: 'POST', url: '/graphql', payload: { query: '{ cities(provinceId: 31) { id } }' } });
      expect(answer.json().errors).toEqual([
        expect.objectContaining({ message: refusal.errors[0].message, extensions: { code: 'BAD_USER_INPUT' } }),
      ]);
    } finally {
      await gateway.close();
      await new Promise((resolve) => subgraph.close(resolve));
    }
  });

  it('in production no validation error suggests a field, at the gateway or a subgraph', async () => {
    const production = loadConfig({ ...process.env, ...PRODUCTION_ENV });
    const gateway = await createGatewayApp({
      config: production,
      subgraphs: { transport: 'http', urls: stack.subgraphUrls() },
      warmUp: false,
    });
    try {
      const token = await issueServiceToken('test', production.secrets.serviceTokenSecret);
      const answer = await gateway.inject({
        method: 'POST',
        url: '/graphql',
        payload: { query: '{ citis(provinceId: 31) { id } }' },
        headers: { authorization: `Bearer ${token}` },
      });
      expect(answer.json().errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(answer.json().errors[0].message).toBe('Cannot query field "citis" on type "Query".');
      const bad = await gateway.inject({
        method: 'POST',
        url: '/graphql',
        payload: { query: '{ cities(provinceId: "\\u0000") { id } }' },
        headers: { authorization: `Bearer ${token}` },
      });
      expect(bad.json().errors[0].extensions.code).toBe('BAD_USER_INPUT');
    } finally {
      await gateway.close();
    }
    const principal = await signPrincipal({ kind: 'anonymous' }, stack.config.secrets.principalSecret);
    const subgraph = await request(stack.subgraphs.merchant.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [PRINCIPAL_HEADER]: principal },
      body: JSON.stringify({ query: '{ citis(provinceId: 31) { id } }' }),
    });
    const body = (await subgraph.body.json()) as GraphQLAnswer;
    expect(body.errors?.[0].message).toBe('Cannot query field "citis" on type "Query".');
  });
});

import http from 'node:http';
import https from 'node:https';
import { HeaderMap } from '@apollo/server';
import Fastify from 'fastify';
import { Registry } from 'prom-client';
import { SUBGRAPH_NAMES, loadConfig } from '@lib/config/config';
import { GraphExecutor } from './executor';
import { operationReuseCounts } from './operation-reuse';

const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' });

/** Where an http(s).request call goes: its URL, or host and path of its options. */
function describeTarget(target: unknown): string {
  if (typeof target === 'string' || target instanceof URL) return String(target);
  const { hostname, host, path } = target as http.RequestOptions;
  return `${hostname ?? host}${path ?? ''}`;
}

/** A port nothing listens on: the operations below never reach a subgraph. */
const NOWHERE = 'http://127.0.0.1:9/graphql';

async function started() {
  const { apollo } = await GraphExecutor.start({
    config,
    subgraphs: { transport: 'http', urls: Object.fromEntries(SUBGRAPH_NAMES.map((name) => [name, NOWHERE])) },
    registry: new Registry(),
    logger: Fastify({ logger: false }).log,
  });
  return apollo;
}

describe('the executor and the vendor (decision 0012)', () => {
  let requests: jest.SpyInstance[];

  beforeEach(() => {
    requests = [jest.spyOn(http, 'request'), jest.spyOn(https, 'request')];
  });
  afterEach(() => jest.restoreAllMocks());

  it('sends nothing to the vendor: no cloud metadata probe at start, no usage export at stop', async () => {
    const apollo = await started();
    // The metadata probes are started in the background right after construction.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await apollo.stop();
    const targets = requests.flatMap((spy) => spy.mock.calls.map((call: unknown[]) => describeTarget(call[0])));
    expect(targets).toEqual([]);
  });

  it('never answers with its query plan, whatever the request asks', async () => {
    const apollo = await started();
    try {
      const response = await apollo.executeOperation({
        query: '{ __typename }',
        http: { method: 'POST', headers: new HeaderMap([['apollo-query-plan-experimental', '1']]), search: '', body: {} },
      });
      expect(response.body.kind).toBe('single');
      if (response.body.kind !== 'single') return;
      expect(response.body.singleResult.data).toEqual({ __typename: 'Query' });
      expect(response.body.singleResult.extensions).toBeUndefined();
    } finally {
      await apollo.stop();
    }
  });
});

describe('operations built once per parsed operation (decision 0009)', () => {
  const QUERY = 'query Reuse($show: Boolean!) { __typename @include(if: $show) }';

  it('reuses the operation of a fixed document, and still shapes each answer by its own variables', async () => {
    const apollo = await started();
    try {
      const data = async (show: boolean) => {
        const response = await apollo.executeOperation({ query: QUERY, variables: { show } });
        if (response.body.kind !== 'single') throw new Error('expected a single result');
        expect(response.body.singleResult.errors).toBeUndefined();
        return response.body.singleResult.data;
      };
      const before = operationReuseCounts();
      expect(await data(true)).toEqual({ __typename: 'Query' });
      expect(await data(false)).toEqual({});
      expect(await data(true)).toEqual({ __typename: 'Query' });
      const after = operationReuseCounts();
      // If an upgrade of @apollo/gateway stops calling operationFromDocument through the library's export, nothing
      // is built here any more: this fails, and operation-reuse.ts must be revisited.
      expect(after.built - before.built).toBe(1);
      expect(after.reused - before.reused).toBe(2);
    } finally {
      await apollo.stop();
    }
  });
});

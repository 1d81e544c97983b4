import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { PRINCIPAL_HEADER, signPrincipal } from '@lib/auth/principal';
import { type Config, loadConfig } from '@lib/config/config';
import { DEMO } from '@lib/domain/demo/demo-ids';
import { type TestDatabase, cloneTemplateDatabase } from '@test/support/test-database';
import { outletSubgraph } from '@subgraphs/outlet/src/app';
import { EmbeddedSubgraph } from './embedded-subgraph';
import { createSubgraphApp } from './subgraph-definition';

/**
 * The outlet subgraph inside another process answers what its HTTP endpoint answers, status and JSON text alike:
 * the principal check, data, a `DateTime` as its string, refused variables and resolver errors.
 */
describe('EmbeddedSubgraph (REST_SUBGRAPHS=in-process)', () => {
  let database: TestDatabase;
  let config: Config;
  let embedded: Pick<EmbeddedSubgraph, 'execute' | 'close'>;
  let http: FastifyInstance;
  let service: string;

  beforeAll(async () => {
    database = await cloneTemplateDatabase();
    config = loadConfig({ ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: database.adminUrl });
    embedded = await EmbeddedSubgraph.open(outletSubgraph, config, pino({ level: 'silent' }));
    http = await createSubgraphApp(outletSubgraph, config);
    service = await signPrincipal({ kind: 'service', service: 'rest-adapters' }, config.secrets.principalSecret);
  });
  afterAll(async () => {
    await embedded?.close();
    await http?.close();
    await database?.drop();
  });

  const outletQuery = `query ($id: ID!) { outlet(id: $id) { id code nmid createdAt } }`;
  const cases: [string, () => Record<string, string>, Record<string, unknown>][] = [
    ['no principal', () => ({}), { query: '{ __typename }' }],
    ['a forged principal', () => ({ [PRINCIPAL_HEADER]: `${service.slice(0, -4)}AAAA` }), { query: '{ __typename }' }],
    ['an outlet with its DateTime', () => ({ [PRINCIPAL_HEADER]: service }), { query: outletQuery, variables: { id: DEMO.outlets[0].id } }],
    ['a variable of the wrong type', () => ({ [PRINCIPAL_HEADER]: service }), { query: outletQuery, variables: { id: { not: 'an id' } } }],
    ['a field that does not exist', () => ({ [PRINCIPAL_HEADER]: service }), { query: '{ nothing }' }],
  ];

  it.each(cases)('answers %s as the HTTP endpoint does', async (_what, headersOf, body) => {
    const headers = { 'content-type': 'application/json', 'x-request-id': 'req-embedded-1', ...headersOf() };
    const overHttp = await http.inject({ method: 'POST', url: '/graphql', headers, payload: body });
    const inProcess = await embedded.execute(body, headers);
    expect({ status: inProcess.status, body: JSON.parse(inProcess.text) as unknown }).toEqual({
      status: overHttp.statusCode,
      body: overHttp.json(),
    });
  });

  it('answers data and refusals with the statuses a data source maps', async () => {
    const headers = { 'content-type': 'application/json', [PRINCIPAL_HEADER]: service };
    const outlet = await embedded.execute({ query: outletQuery, variables: { id: DEMO.outlets[0].id } }, headers);
    expect(outlet.status).toBe(200);
    expect(JSON.parse(outlet.text)).toEqual({
      data: {
        outlet: {
          id: DEMO.outlets[0].id,
          code: expect.any(String),
          nmid: expect.any(String),
          createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
      },
    });
    expect((await embedded.execute({ query: '{ __typename }' }, {})).status).toBe(401);
  });
});

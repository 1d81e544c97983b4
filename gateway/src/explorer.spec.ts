import type { FastifyInstance } from 'fastify';
import { loadConfig } from '@lib/config/config';
import { createGatewayApp } from './app';
import { loadTrustedDocuments } from './trusted-documents';
import { PRODUCTION_ENV } from '@test/support/production-env';

describe('GraphQL explorer (development)', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    // No subgraph is needed to serve the explorer.
    app = await createGatewayApp({ config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }), warmUp: false });
  });
  afterAll(() => app.close());

  it('serves GraphiQL from node_modules, with nothing loaded from elsewhere', async () => {
    const page = await app.inject({ method: 'GET', url: '/graphiql' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets).toHaveLength(4);
    expect(page.body).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(page.body).not.toMatch(/https?:\/\//);
    for (const asset of assets) {
      const res = await app.inject({ method: 'GET', url: asset });
      expect([asset, res.statusCode]).toEqual([asset, 200]);
      expect(res.body.length).toBeGreaterThan(1000);
    }
  });

  it('presets the operator bearer header and opens every trusted app operation as a tab', async () => {
    const page = (await app.inject({ method: 'GET', url: '/graphiql' })).body;
    expect(page).toContain('Bearer \\u003cpaste the token of: npm run ops -- operator:token');
    const documents = [...loadTrustedDocuments().values()];
    expect(documents.length).toBeGreaterThan(5);
    const settings = JSON.parse(/const settings = (.*);\n/.exec(page)![1]) as { tabs: { query: string }[] };
    expect(settings.tabs.map((t) => t.query).sort()).toEqual(documents.map((d) => d.document).sort());
    expect(page).not.toContain('</script>\n    const');
  });

  it('is the landing page of /graphql in a browser', async () => {
    const res = await app.inject({ method: 'GET', url: '/graphql', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('/graphiql/assets/graphiql.js');
  });

  it('is off in production', async () => {
    const production = await createGatewayApp({
      config: loadConfig(PRODUCTION_ENV),
      warmUp: false,
    });
    try {
      expect((await production.inject({ method: 'GET', url: '/graphiql' })).statusCode).toBe(404);
      expect((await production.inject({ method: 'GET', url: '/graphiql/assets/graphiql.js' })).statusCode).toBe(404);
    } finally {
      await production.close();
    }
  });
});

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ApolloServerPlugin } from '@apollo/server';
import type { FastifyInstance } from 'fastify';
import type { TrustedDocument } from './trusted-documents';

/**
 * The development explorer: GraphiQL 3 and React 18 from node_modules (their UMD builds; dev dependencies, absent from
 * production images), so it works offline — unlike Apollo's landing page, which loads Apollo Sandbox from a CDN. Served
 * at GET /graphiql and as the landing page of GET /graphql in a browser; never in production.
 *
 * Header preset: `Authorization: Bearer <operator token>`, to be filled from `npm run ops -- operator:token` (an
 * operator may send any operation). Tabs: every trusted app operation (gateway/app-operations/), as the app sends it.
 */
const ASSETS: Record<string, { pkg: string; file: string; type: string }> = {
  'react.js': { pkg: 'react', file: 'umd/react.production.min.js', type: 'text/javascript; charset=utf-8' },
  'react-dom.js': { pkg: 'react-dom', file: 'umd/react-dom.production.min.js', type: 'text/javascript; charset=utf-8' },
  'graphiql.js': { pkg: 'graphiql', file: 'graphiql.min.js', type: 'text/javascript; charset=utf-8' },
  'graphiql.css': { pkg: 'graphiql', file: 'graphiql.min.css', type: 'text/css; charset=utf-8' },
};

export const OPERATOR_HEADER_PRESET = {
  Authorization: 'Bearer <paste the token of: npm run ops -- operator:token --name you --roles support>',
};

/** The explorer's files, or undefined when its packages are not installed (production dependencies only). */
function resolveAssets(): Map<string, { file: string; type: string }> | undefined {
  const files = new Map<string, { file: string; type: string }>();
  for (const [name, { pkg, file: inPackage, type }] of Object.entries(ASSETS)) {
    let file: string;
    try {
      // The UMD files are not in the packages' `exports`: found beside their package.json.
      file = path.join(path.dirname(require.resolve(`${pkg}/package.json`)), inPackage);
    } catch {
      return undefined;
    }
    if (!existsSync(file)) return undefined;
    files.set(name, { file, type });
  }
  return files;
}

export function explorerHtml(documents: TrustedDocument[], graphqlPath = '/graphql', assetsPath = '/graphiql/assets'): string {
  const headers = JSON.stringify(OPERATOR_HEADER_PRESET, null, 2);
  const tabs = [...documents].sort((a, b) => a.name.localeCompare(b.name)).map((d) => ({ query: d.document, headers }));
  // JSON inside a <script>: no "</script>" or "<!--" can close it.
  const settings = JSON.stringify({ url: graphqlPath, headers, tabs }).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>QRIS merchant platform – GraphQL explorer</title>
  <link rel="stylesheet" href="${assetsPath}/graphiql.css">
  <style>html, body, #graphiql { height: 100%; margin: 0; }</style>
</head>
<body>
  <div id="graphiql">Loading the explorer…</div>
  <script src="${assetsPath}/react.js"></script>
  <script src="${assetsPath}/react-dom.js"></script>
  <script src="${assetsPath}/graphiql.js"></script>
  <script>
    const settings = ${settings};
    const send = GraphiQL.createFetcher({ url: new URL(settings.url, window.location.href).toString() });
    // Until a token is pasted, the preset's placeholder is not sent: the schema still loads (anonymous introspection).
    const fetcher = (params, options = {}) => {
      const headers = Object.fromEntries(Object.entries(options.headers || {}).filter(([, value]) => !String(value).includes('<paste')));
      return send(params, { ...options, headers });
    };
    ReactDOM.createRoot(document.getElementById('graphiql')).render(
      React.createElement(GraphiQL, {
        fetcher,
        defaultTabs: settings.tabs,
        defaultHeaders: settings.headers,
        shouldPersistHeaders: true,
        defaultEditorToolsVisibility: 'headers',
      }),
    );
  </script>
</body>
</html>
`;
}

/**
 * Serves the explorer (development only: the caller checks). Returns Apollo's landing-page plugin that shows it at
 * GET /graphql, or undefined when the packages are missing (then there is no explorer, and no landing page).
 */
export function registerExplorer(app: FastifyInstance, documents: TrustedDocument[]): ApolloServerPlugin | undefined {
  const assets = resolveAssets();
  if (!assets) {
    app.log.info('GraphQL explorer off: graphiql, react or react-dom is not installed');
    return undefined;
  }
  const html = explorerHtml(documents);
  app.get('/graphiql', async (_req, reply) => reply.type('text/html; charset=utf-8').send(html));
  app.get<{ Params: { name: string } }>('/graphiql/assets/:name', async (req, reply) => {
    const asset = assets.get(req.params.name);
    if (!asset) return reply.code(404).send({ error: 'not found' });
    return reply.type(asset.type).header('cache-control', 'public, max-age=3600').send(readFileSync(asset.file));
  });
  return {
    async serverWillStart() {
      return {
        async renderLandingPage() {
          return { html };
        },
      };
    },
  };
}

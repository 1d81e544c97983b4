import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { scopedPlugin } from '../http/scoped-plugin';
import { SAMPLES_PATH, apiDescription, apiPagesDir } from './api-pages';
import { AUDIENCES, AUDIENCE_NAMES, type Audience, SIGNED_CREDENTIALS, audienceDocument, tagAudiences } from './audiences';
import { CREDENTIALS, type CredentialKind, SECURITY_SCHEMES, requireCredential } from './openapi';
import type { RestAdapter } from './route';

type Json = Record<string, any>;

/** The reference pages' own files: the logo, the style, the signing script (browser JavaScript, served as they are). */
const ASSETS = path.join(__dirname, 'reference-assets');
/** An asset's text; the build's source-map comment (it compiles the script too) is left out: no map is served. */
const asset = (name: string) => readFileSync(path.join(ASSETS, name), 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');

export const PRODUCT_NAME = 'QRIS merchant platform';

/**
 * What the reference pages may load and do: their own scripts, styles and data-URI images, requests to this server
 * only ("Try it out" goes to the server that serves the page), no framing by others, no plugins, no inline script.
 * Swagger UI sets inline styles, hence style-src 'unsafe-inline' (styles only).
 */
export const REFERENCE_CSP = [
  "default-src 'self'",
  "base-uri 'self'",
  "connect-src 'self'",
  "font-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'self'",
  "img-src 'self' data:",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' 'unsafe-inline'",
].join('; ');

/** The server the page's own document names first, so that "Try it out" reaches the server serving the page. */
const THIS_SERVER = { url: '/', description: 'This server (the one showing this page)' };

interface Page {
  /** /docs for the whole reference, /docs/<audience> for one audience's. */
  prefix: string;
  title: string;
  audience?: Audience;
}

const PAGES: Page[] = [
  { prefix: '/docs', title: 'All APIs' },
  ...AUDIENCE_NAMES.map((audience) => ({ prefix: `/docs/${audience}`, title: AUDIENCES[audience].title, audience })),
];

/** What the signing script needs to sign a credential's requests: its label, its three headers and its operations. */
interface SignedCredential {
  kind: CredentialKind;
  label: string;
  headers: { keyId: string; timestamp: string; signature: string };
  operations: { method: string; pattern: string }[];
}

const CREDENTIAL_LABELS: Record<(typeof SIGNED_CREDENTIALS)[number], string> = {
  bankLookup: 'Bank lookup key',
  bankEvent: 'Bank event key',
  partner: 'Partner HMAC credential',
};

/**
 * The reference pages: the whole at /docs, each audience's at /docs/<audience> (Swagger UI, from node_modules, with
 * our name, logo and colours), each audience's document at /openapi/<audience>.json, and the signing samples at
 * /docs/samples/. "Try it out" signs bank and partner requests in the browser (reference-assets/signing.js).
 */
export async function registerReferencePages(app: FastifyInstance, adapters: RestAdapter[]): Promise<void> {
  const documents = new Map<Audience, Json>();
  const documentOf = (audience: Audience): Json => {
    let document = documents.get(audience);
    if (!document) {
      const description = apiDescription(AUDIENCES[audience].pages);
      document = audienceDocument(app.swagger() as Json, audience, adapters, description);
      documents.set(audience, document);
    }
    return document;
  };
  for (const audience of AUDIENCE_NAMES) app.get(`/openapi/${audience}.json`, { schema: { hide: true } }, async () => documentOf(audience));

  const logo = asset('logo.svg');
  for (const page of PAGES) {
    const document = () => (page.audience ? documentOf(page.audience) : (app.swagger() as Json));
    const settings = {
      current: page.prefix,
      pages: PAGES.map(({ prefix, title }) => ({ href: `${prefix}/`, title })),
      credentials: signedCredentials(adapters, page.audience),
    };
    // Each page in a context of its own: the plugin decorates its instance.
    const referencePage = scopedPlugin('reference-page', async (scope) => {
      await scope.register(swaggerUi, {
        routePrefix: page.prefix,
        staticCSP: REFERENCE_CSP,
        // The page's document names this server first; built once, not copied per request.
        transformSpecificationClone: false,
        transformSpecification: () => {
          const shown = document();
          return { ...shown, servers: [THIS_SERVER, ...(shown.servers ?? [])] };
        },
        // Everything is served from node_modules (@fastify/swagger-ui bundles Swagger UI); no validator badge.
        uiConfig: {
          docExpansion: 'list',
          deepLinking: true,
          displayOperationId: true,
          displayRequestDuration: true,
          filter: true,
          persistAuthorization: true,
          showCommonExtensions: true,
          tryItOutEnabled: true,
          defaultModelsExpandDepth: 0,
          validatorUrl: null,
          showMutatedRequest: true,
          requestInterceptor,
        },
        logo: { type: 'image/svg+xml', content: logo, href: `${page.prefix}/`, target: '_self' },
        theme: {
          title: `${PRODUCT_NAME} – ${page.title} reference`,
          css: [{ filename: 'reference.css', content: asset('reference.css') }],
          // Data first, then the script that reads it; both run before Swagger UI starts (on load).
          js: [
            { filename: 'reference-settings.js', content: `window.referenceSettings = ${scriptJson(settings)};\n` },
            { filename: 'signing.js', content: asset('signing.js') },
          ],
          favicon: [{ filename: 'favicon.svg', rel: 'icon', type: 'image/svg+xml', sizes: 'any', content: logo }],
        },
      });
    });
    await app.register(referencePage);
  }
  await registerSamples(app);
}

/**
 * Swagger UI's request interceptor, serialised into its initializer: it hands each request to the page's signing
 * script (a static asset), which adds the signature headers when the request needs them and a key was entered.
 */
function requestInterceptor<R>(request: R): R | Promise<R> {
  const signing = (globalThis as { referenceSigning?: { sign(request: R): Promise<R> } }).referenceSigning;
  return signing ? signing.sign(request) : request;
}

/** The credentials the page signs: those of its operations (every one on the whole page), with their routes. */
export function signedCredentials(adapters: RestAdapter[], audience?: Audience): SignedCredential[] {
  const audiences = tagAudiences(adapters);
  const result: SignedCredential[] = [];
  for (const kind of SIGNED_CREDENTIALS) {
    const operations = adapters
      .flatMap((adapter) => adapter.routes)
      .filter((route) => route.authenticate && requireCredential(route) === kind)
      .filter((route) => !audience || audiences.get(route.tags[0]) === audience)
      .map((route) => ({ method: route.method, pattern: urlPattern(route.url) }));
    if (operations.length === 0) continue;
    // The signed alternative: three header schemes, key id, timestamp and signature (in that order).
    const signed = CREDENTIALS[kind].security.find((requirement) => Object.keys(requirement).length === 3)!;
    const [keyId, timestamp, signature] = Object.keys(signed).map((scheme) => SECURITY_SCHEMES[scheme].name as string);
    result.push({ kind, label: CREDENTIAL_LABELS[kind], headers: { keyId, timestamp, signature }, operations });
  }
  return result;
}

/** A route's path (`/merchants/by-nmid/:nmid`) as a pattern for a request's path, each parameter one segment. */
function urlPattern(url: string): string {
  const parts = url.split('/').map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return `^${parts.join('/')}$`;
}

/** JSON inside a script: no "</script>" or "<!--" can end it. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/**
 * The signing samples (docs/api/samples/) as plain text, so the walkthroughs' link works from the reference: the
 * README at /docs/samples/ and each sample at /docs/samples/<language>/<file>. Only the files present at start.
 */
async function registerSamples(app: FastifyInstance): Promise<void> {
  const dir = path.join(apiPagesDir(), 'samples');
  if (!existsSync(dir)) return;
  const files = new Map<string, string>([['', path.join(dir, 'README.md')]]);
  for (const language of readdirSync(dir)) {
    const folder = path.join(dir, language);
    if (!statSync(folder).isDirectory()) continue;
    for (const file of readdirSync(folder)) files.set(`${language}/${file}`, path.join(folder, file));
  }
  const samples = scopedPlugin('integrator-samples', async (scope) => {
    scope.addHook('onSend', async (_req, reply, payload) => {
      reply.header('content-security-policy', "default-src 'none'; frame-ancestors 'self'").header('x-content-type-options', 'nosniff');
      return payload;
    });
    for (const [name, file] of files) {
      scope.get(`${SAMPLES_PATH}/${name}`, { schema: { hide: true } }, async (_req, reply) =>
        reply.type('text/plain; charset=utf-8').send(readFileSync(file, 'utf8')),
      );
    }
  });
  await app.register(samples);
}

import { readFileSync } from 'node:fs';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '@lib/config/config';
import { AUDIENCES, AUDIENCE_NAMES, tagAudiences } from '@lib/rest/audiences';
import { projectRoot } from '@lib/config/project-root';
import { ErrorBody, ErrorDetail } from '@lib/rest/error-body';
import { NO_OPERATIONS } from '@lib/rest/operation-executor';
import { createRestApp } from '@lib/rest/rest-app';
import type { RestRoute } from '@lib/rest/route';
import { REST_ADAPTERS } from '@rest-adapters';
import { OPENAPI_TYPES_FILE, generateOpenApiTypes } from '@scripts/openapi';

const ROUTES: RestRoute<any>[] = REST_ADAPTERS.flatMap((adapter) => adapter.routes);
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

describe('OpenAPI document', () => {
  let app: FastifyInstance;
  let document: Record<string, any>;
  const operations = () =>
    Object.entries<Record<string, any>>(document.paths).flatMap(([url, item]) =>
      Object.entries<Record<string, any>>(item)
        .filter(([method]) => METHODS.includes(method))
        .map(([method, operation]) => ({ url, method, operation })),
    );

  beforeAll(async () => {
    // No gateway is needed to describe the routes.
    app = await createRestApp({
      config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
      adapters: REST_ADAPTERS,
      operations: async () => NO_OPERATIONS,
    });
    document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
  });
  afterAll(() => app.close());

  it('is a valid OpenAPI 3.1 document (validated by swagger-parser)', async () => {
    expect(document.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
  });

  it('documents every route with its parameters, responses and the error body', async () => {
    const paths = Object.keys(document.paths);
    for (const route of ROUTES) expect(paths).toContain(route.url.replace(/:(\w+)/g, '{$1}'));
    const cities = document.paths['/references/cities'].get;
    expect(cities.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'province_id', in: 'query', required: true })]),
    );
    expect(Object.keys(cities.responses)).toEqual(expect.arrayContaining(['200', '304', '400', '500', '503']));
    expect(document.components.schemas.ErrorBody.required).toEqual(['error', 'code']);
    expect(paths).not.toContain('/metrics');
  });

  it('has unique operationIds, servers, and security on every operation from the credential its route checks', () => {
    const ids = operations().map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(document.servers).toEqual([expect.objectContaining({ url: 'http://localhost:8080' })]);
    const security = (url: string, method: string) => document.paths[url][method].security;
    expect(security('/api/psp/v1/merchants', 'get')).toEqual([{ BankLookupKeyId: [], BankLookupTimestamp: [], BankLookupSignature: [] }]);
    expect(security('/psp/v1/events', 'post')).toEqual([{ BankEventKeyId: [], BankEventTimestamp: [], BankEventSignature: [] }]);
    expect(security('/api/partner/v1/partners/{partner_id}/referral-merchants', 'get')).toEqual([
      { PartnerBearer: [] },
      { PartnerKeyId: [], PartnerTimestamp: [], PartnerSignature: [] },
    ]);
    expect(security('/merchant/transactions', 'get')).toEqual([{ UserBearer: [] }]);
    expect(security('/internal/merchant/status', 'post')).toEqual([{ InternalApiKey: [] }]);
    expect(security('/references/cities', 'get')).toEqual([]);
    const posService = document.paths['/poslite/catalog/products'].get;
    expect(posService.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'X-Merchant-ID', in: 'header', required: true })]),
    );
    const names = new Set(operations().flatMap(({ operation }) => operation.security.flatMap((s: object) => Object.keys(s))));
    for (const name of names) expect(document.components.securitySchemes[name]).toBeDefined();
  });

  it('requires a parameter only when the caller must send it (a default makes it optional)', () => {
    const list = document.paths['/api/psp/v1/merchants'].get.parameters;
    expect(list.find((p: { name: string }) => p.name === 'limit')).toMatchObject({ required: false, schema: { default: 100 } });
    for (const { operation } of operations()) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.schema && 'default' in parameter.schema) expect(parameter.required).toBe(false);
        if (parameter.in === 'path') expect(parameter.required).toBe(true);
      }
    }
  });

  it('describes every status, with error codes, rate-limit and Retry-After headers', () => {
    for (const { url, method, operation } of operations()) {
      for (const [status, response] of Object.entries<Record<string, any>>(operation.responses)) {
        expect([url, method, status, response.description]).not.toContain('Default Response');
        expect(response.headers?.['X-Request-ID']).toBeDefined();
        if (Number(status) === 429 || Number(status) === 503) expect(response.headers['Retry-After']).toBeDefined();
        const schema = response.content?.['application/json']?.schema;
        if (schema?.allOf) expect(schema.allOf[1].properties.code.enum.length).toBeGreaterThan(0);
      }
      const route = ROUTES.find((r) => r.operationId === operation.operationId)!;
      if (route.rateLimit) {
        expect(operation.responses['429']).toBeDefined();
        expect(operation.responses['200'] ?? operation.responses['201'] ?? operation.responses['204']).toMatchObject({
          headers: expect.objectContaining({ 'X-RateLimit-Limit': expect.anything(), 'X-RateLimit-Reset': expect.anything() }),
        });
      }
      if (route.authenticate) expect(operation.responses['401']).toBeDefined();
    }
    const assign = document.paths['/api/psp/v1/merchants/{id}/nmid-assignment'].patch.responses['409'];
    expect(assign.content['application/json'].schema.allOf[1].properties.code.enum).toEqual(['nmid_taken', 'merchant_deleted']);
    const otp = document.paths['/auth/request-otp'].post.responses['429'];
    expect(otp.content['application/json'].schema.allOf[1].properties.code.enum).toEqual(
      expect.arrayContaining(['rate_limit_exceeded', 'otp_cooldown']),
    );
  });

  describe('examples', () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(ErrorDetail);
    ajv.addSchema(ErrorBody);
    for (const schema of REST_ADAPTERS.flatMap((adapter) => adapter.schemas ?? [])) ajv.addSchema(schema);
    const check = (schema: object, value: unknown, what: string) => {
      const validate = ajv.compile(schema);
      if (!validate(value)) throw new Error(`${what}: ${ajv.errorsText(validate.errors)}`);
    };

    it.each(ROUTES.filter((route) => route.examples).map((route) => [route.operationId, route] as const))(
      '%s: its examples match its schemas',
      (id, route) => {
        const { examples, schema } = route;
        if (examples?.params) check(schema.params!, examples.params, `${id} params`);
        if (examples?.query) check({ ...schema.querystring!, required: [] }, examples.query, `${id} query`);
        if (examples?.body !== undefined) check(schema.body!, examples.body, `${id} body`);
        for (const [status, value] of Object.entries(examples?.responses ?? {}))
          check(schema.response[Number(status)], value, `${id} ${status}`);
        for (const [status, named] of Object.entries(examples?.namedResponses ?? {}))
          for (const [name, { value }] of Object.entries(named ?? {}))
            check(schema.response[Number(status)], value, `${id} ${status} ${name}`);
      },
    );

    /**
     * A body that is not JSON needs no example: the routes declare it as a bare string — Server-Sent Events
     * (`text/event-stream`), the QRIS sticker (svg, png or text) and the messaging webhook's `text/plain` challenge —
     * or as null (204). Everything else (a JSON request body, path and query parameters, a JSON success answer) must
     * have one, so a new route without examples fails here.
     */
    const isJson = (schema: { type?: unknown }) => schema.type !== 'string' && schema.type !== 'null';
    const successes = (route: RestRoute<any>) =>
      Object.keys(route.schema.response)
        .map(Number)
        .filter((s) => s < 300 && isJson(route.schema.response[s]));

    it('covers every operation: its parameters, its body and its JSON success answers', () => {
      const missing = ROUTES.flatMap((route) => {
        const { examples, schema, operationId: id } = route;
        const json = successes(route).length > 0;
        return [
          ...(schema.params && !examples?.params ? [`${id} params`] : []),
          ...(json && schema.querystring && !examples?.query ? [`${id} query`] : []),
          ...(schema.body && examples?.body === undefined ? [`${id} body`] : []),
          ...successes(route)
            .filter((s) => examples?.responses?.[s] === undefined && examples?.namedResponses?.[s] === undefined)
            .map((s) => `${id} ${s}`),
        ];
      });
      expect(missing).toEqual([]);
    });

    it('gives an answer of several shapes (oneOf: partner contracts A and B, a login or a code) one named example per shape', () => {
      const missing = ROUTES.flatMap((route) =>
        successes(route).flatMap((status) => {
          const shapes: object[] | undefined = route.schema.response[status].oneOf;
          if (!shapes) return [];
          const named = Object.values(route.examples?.namedResponses?.[status] ?? {}).map(({ value }) => value);
          return shapes
            .map((shape, i) => ({ i, validate: ajv.compile(shape) }))
            .filter(({ validate }) => !named.some((value) => validate(value)))
            .map(({ i }) => `${route.operationId} ${status} oneOf[${i}]`);
        }),
      );
      expect(missing).toEqual([]);
    });

    it('show every instant of an answer in its API’s time rule (docs/api/index.md “Times”)', () => {
      // Bank and partner contract B: UTC; partner contract A: +07:00; the app and core API: +08:00.
      const ruleOf = (url: string, name: string) =>
        url.startsWith('/api/psp/') || url.startsWith('/psp/') || name === 'contract_b'
          ? /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/
          : url.startsWith('/api/partner/')
            ? /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?\+07:00$/
            : /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?\+08:00$/;
      const strings = (value: unknown): string[] =>
        typeof value === 'string' ? [value] : value && typeof value === 'object' ? Object.values(value).flatMap(strings) : [];
      const wrong: string[] = [];
      let checked = 0;
      for (const { url, operation } of operations())
        for (const [status, response] of Object.entries<Record<string, any>>(operation.responses)) {
          const content = Number(status) < 300 ? response.content?.['application/json'] : undefined;
          const examples = content?.examples
            ? Object.entries<{ value: unknown }>(content.examples).map(([name, { value }]) => ({ name, value }))
            : content?.example !== undefined
              ? [{ name: '', value: content.example }]
              : [];
          for (const { name, value } of examples)
            for (const text of strings(value).filter((t) => /^\d{4}-\d\d-\d\dT\d\d:/.test(t))) {
              checked += 1;
              if (!ruleOf(url, name).test(text)) wrong.push(`${operation.operationId} ${status} ${name}: ${text}`);
            }
        }
      expect(wrong).toEqual([]);
      expect(checked).toBeGreaterThan(100);
    });

    it('puts them in the document, with an example per error code', () => {
      const byNmid = document.paths['/api/psp/v1/merchants/by-nmid/{nmid}'].get;
      expect(byNmid.parameters.find((p: { name: string }) => p.name === 'nmid').example).toBe('ID1026112200001');
      expect(byNmid.responses['200'].content['application/json'].example.merchant.merchant_name).toBe('Warung Kopi Demo');
      const events = document.paths['/psp/v1/events'].post;
      expect(events.requestBody.content['application/json'].example.gross_amount).toBe(25000);
      const token = document.paths['/api/partner/v1/auth/token'].post.responses['200'].content['application/json'];
      expect(token.example).toBeUndefined();
      expect(token.examples.contract_a.value.token_type).toBe('Bearer');
      expect(token.examples.contract_b.value.token_type).toBe('bearer');
      for (const { operation } of operations()) {
        for (const response of Object.values<Record<string, any>>(operation.responses)) {
          const content = response.content?.['application/json'];
          if (!content?.schema?.allOf) continue;
          for (const code of content.schema.allOf[1].properties.code.enum) {
            check(ErrorBody, content.examples[code].value, `${operation.operationId} ${code}`);
            expect(content.examples[code].value.code).toBe(code);
          }
        }
      }
    });
  });

  it('generated client types are up to date (npm run openapi)', async () => {
    const committed = readFileSync(path.join(projectRoot(), OPENAPI_TYPES_FILE), 'utf8');
    const fresh = await generateOpenApiTypes(structuredClone(document));
    expect(fresh === committed).toBe(true);
  }, 60_000);

  describe('reference pages and audience documents', () => {
    const PAGES = ['/docs', ...AUDIENCE_NAMES.map((audience) => `/docs/${audience}`)];
    const audienceOf = tagAudiences(REST_ADAPTERS);
    const audienceDocument = async (audience: string) => (await app.inject({ method: 'GET', url: `/openapi/${audience}.json` })).json();

    it.each(AUDIENCE_NAMES)(
      '/openapi/%s.json is valid OpenAPI 3.1 with only its operations, tags, schemes and components',
      async (audience) => {
        const own = await audienceDocument(audience);
        await expect(SwaggerParser.validate(structuredClone(own) as never)).resolves.toBeDefined();
        expect(own.info.title).toBe(`QRIS merchant platform REST APIs: ${AUDIENCES[audience].title}`);
        const expected = operations().filter(({ operation }) => audienceOf.get(operation.tags[0]) === audience);
        const ownOperations = Object.entries<Record<string, any>>(own.paths).flatMap(([url, item]) =>
          Object.entries<Record<string, any>>(item).map(([method, operation]) => ({ url, method, operation })),
        );
        expect(expected.length).toBeGreaterThan(0);
        expect(ownOperations.map(({ url, method }) => `${method} ${url}`)).toEqual(expected.map(({ url, method }) => `${method} ${url}`));
        expect(own.tags.map((tag: { name: string }) => tag.name)).toEqual(
          document.tags.map((tag: { name: string }) => tag.name).filter((name: string) => audienceOf.get(name) === audience),
        );
        // Security schemes: exactly those its operations use.
        const used = new Set(ownOperations.flatMap(({ operation }) => operation.security.flatMap((s: object) => Object.keys(s))));
        expect(Object.keys(own.components.securitySchemes ?? {}).sort()).toEqual([...used].sort());
        // Components: every one referenced (from the paths or another kept component), none missing.
        const refs = new Set([...JSON.stringify(own).matchAll(/"\$ref":"#\/components\/(\w+)\/([^"]+)"/g)].map((m) => `${m[1]}/${m[2]}`));
        const kept = Object.entries<Record<string, unknown>>(own.components)
          .filter(([section]) => section !== 'securitySchemes')
          .flatMap(([section, entries]) => Object.keys(entries).map((name) => `${section}/${name}`));
        expect(kept.sort()).toEqual([...refs].sort());
        expect(JSON.stringify(own).length).toBeLessThan(JSON.stringify(document).length / 2);
      },
    );

    it('every operation is in exactly one audience, and every group says what it is for', async () => {
      const counted = new Map<string, number>();
      for (const audience of AUDIENCE_NAMES) {
        for (const [url, item] of Object.entries<Record<string, any>>((await audienceDocument(audience)).paths)) {
          for (const method of Object.keys(item)) counted.set(`${method} ${url}`, (counted.get(`${method} ${url}`) ?? 0) + 1);
        }
      }
      expect(operations().map(({ url, method }) => counted.get(`${method} ${url}`))).toEqual(operations().map(() => 1));
      expect(document.tags.length).toBe(REST_ADAPTERS.flatMap((adapter) => adapter.tags).length);
      for (const tag of document.tags) {
        expect(tag.description).not.toContain(tag.name);
        expect(tag.description.split(' ').length).toBeGreaterThanOrEqual(8);
      }
      // A route whose tag its adapter does not define stops the app at start.
      const [first] = REST_ADAPTERS;
      const stray = { ...first, routes: [{ ...first.routes[0], tags: ['psp: misc'] }] };
      await expect(
        createRestApp({
          config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
          adapters: [stray],
          operations: async () => NO_OPERATIONS,
        }),
      ).rejects.toThrow(/tag psp: misc is not defined by its adapter/);
    });

    it('no served document names an internal file: contracts, design notes, decision records, source paths', async () => {
      const served = [
        ['/openapi.json', document],
        ...(await Promise.all(AUDIENCE_NAMES.map(async (a) => [`/openapi/${a}.json`, await audienceDocument(a)] as const))),
        ...(await Promise.all(
          PAGES.map(async (p) => [`${p}/json`, (await app.inject({ method: 'GET', url: `${p}/json` })).json()] as const),
        )),
      ] as const;
      const internal =
        /\b(?:psp|partner|core)-api\.md\b|\bDESIGN\.md\b|\bSTACK\.md\b|\bdecisions?\/|\b[Dd]ecision \d{4}\b|(?<![/\w])docs\/|(?:^|[\s(`'"])(?:lib|rest-adapters|subgraphs|scripts|gateway|test)\/\S+|\.(?:ts|graphql)\b|\]\((?!\/|https?:|#)[^)]*\)|(?<!RFC \d+ )§ ?\d/;
      const found: string[] = [];
      const walk = (value: unknown, at: string): void => {
        if (typeof value === 'string') {
          const match = internal.exec(value);
          if (match) found.push(`${at}: …${value.slice(Math.max(0, match.index - 40), match.index + 40)}…`);
        } else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, `${at}/${k}`);
      };
      for (const [url, served_] of served) walk(served_, url);
      expect(found).toEqual([]);
      // The pages' own links (to the references and the signing samples) answer.
      const links = new Set([...JSON.stringify(document.info.description).matchAll(/\]\((\/[^)\s]*)\)/g)].map((m) => m[1]));
      expect([...links]).toEqual(expect.arrayContaining(['/docs/bank/', '/docs/samples/']));
      for (const link of links) expect([link, (await app.inject({ method: 'GET', url: link })).statusCode]).toEqual([link, 200]);
      const sample = await app.inject({ method: 'GET', url: '/docs/samples/node/signing.mjs' });
      expect([sample.statusCode, sample.headers['content-type']]).toEqual([200, 'text/plain; charset=utf-8']);
    });

    it.each(PAGES)(
      '%s: our name, logo and colours from node_modules and its own files, under a CSP that allows its scripts',
      async (prefix) => {
        const page = await app.inject({ method: 'GET', url: `${prefix}/` });
        expect(page.statusCode).toBe(200);
        expect(page.headers['content-type']).toContain('text/html');
        expect(page.body).toMatch(/<title>QRIS merchant platform – .+ reference<\/title>/);
        const csp = String(page.headers['content-security-policy']);
        expect(csp).toContain("script-src 'self'");
        expect(csp).toContain("connect-src 'self'");
        expect(csp).not.toContain('unsafe-eval');
        expect(page.body).not.toMatch(/<script>|<script [^>]*>[^<\s]/); // no inline script: every script is a file
        const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
        expect(assets.filter((asset) => /^(https?:)?\/\//.test(asset))).toEqual([]);
        expect(assets).toEqual(expect.arrayContaining(['./static/theme/reference.css', './static/theme/signing.js']));
        for (const asset of assets) {
          const res = await app.inject({ method: 'GET', url: new URL(asset, `http://x${prefix}/`).pathname });
          expect([asset, res.statusCode]).toEqual([asset, 200]);
          expect(res.headers['content-security-policy']).toBe(csp);
        }
        const initializer = (await app.inject({ method: 'GET', url: `${prefix}/static/swagger-initializer.js` })).body;
        expect(initializer).toContain('validatorUrl: null');
        // Our logo (not fastify's), and the request interceptor handing requests to the signing script.
        const logo = /img\.src = 'data:image\/svg\+xml;base64,([^']+)'/.exec(initializer)![1];
        expect(Buffer.from(logo, 'base64').toString()).toContain('QRIS merchant platform');
        expect(initializer).toMatch(/"requestInterceptor":function requestInterceptor\(request\) \{[^}]*globalThis\.referenceSigning/);
        // Its document: this server first, so that "Try it out" reaches the server showing the page.
        const shown = (await app.inject({ method: 'GET', url: `${prefix}/json` })).json();
        expect(shown.servers[0]).toEqual({ url: '/', description: expect.any(String) });
      },
    );

    it('each page signs the credentials of its own operations, with the headers the security schemes name', async () => {
      const settings = async (prefix: string) => {
        const script = (await app.inject({ method: 'GET', url: `${prefix}/static/theme/reference-settings.js` })).body;
        return JSON.parse(/^window\.referenceSettings = (.*);\n$/s.exec(script)![1]);
      };
      const kinds = async (prefix: string) => (await settings(prefix)).credentials.map((c: { kind: string }) => c.kind);
      expect(await kinds('/docs')).toEqual(['bankLookup', 'bankEvent', 'partner']);
      expect(await kinds('/docs/bank')).toEqual(['bankLookup', 'bankEvent']);
      expect(await kinds('/docs/partner')).toEqual(['partner']);
      expect(await kinds('/docs/app')).toEqual([]);
      expect(await kinds('/docs/internal')).toEqual([]);
      const [lookup] = (await settings('/docs/bank')).credentials;
      expect(lookup.headers).toEqual({ keyId: 'X-API-Key-ID', timestamp: 'X-Timestamp', signature: 'X-Signature' });
      const matches = (path: string) =>
        lookup.operations.some((o: { method: string; pattern: string }) => o.method === 'GET' && new RegExp(o.pattern).test(path));
      expect(matches('/api/psp/v1/merchants/by-nmid/ID1026112200001')).toBe(true);
      expect(matches('/api/partner/v1/partners/x/referral-merchants')).toBe(false);
      const partner = (await settings('/docs/partner')).credentials[0];
      // The token exchange takes no signature.
      expect(partner.operations.some((o: { pattern: string }) => new RegExp(o.pattern).test('/api/partner/v1/auth/token'))).toBe(false);
    });
  });
});

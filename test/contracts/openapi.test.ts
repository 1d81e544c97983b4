import { readFileSync } from 'node:fs';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '@lib/config/config';
import { projectRoot } from '@lib/config/project-root';
import { ErrorBody } from '@lib/rest/error-body';
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

  it('serves a reference page at /docs from node_modules, with no external script or style', async () => {
    const page = await app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('swagger-ui');
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets.filter((asset) => /^(https?:)?\/\//.test(asset))).toEqual([]);
    for (const asset of assets) {
      const res = await app.inject({ method: 'GET', url: new URL(asset, 'http://x/docs/').pathname });
      expect([asset, res.statusCode]).toEqual([asset, 200]);
    }
    const initializer = await app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    expect(initializer.body).toContain('validatorUrl: null');
  });
});

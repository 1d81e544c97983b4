import SwaggerParser from '@apidevtools/swagger-parser';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '@lib/config/config';
import { createRestApp } from '@lib/rest/rest-app';
import { REST_ADAPTERS } from '@rest-adapters';

describe('OpenAPI document', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    // No gateway is needed to describe the routes.
    app = await createRestApp({ config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }), adapters: REST_ADAPTERS });
  });
  afterAll(() => app.close());

  it('is a valid OpenAPI 3.1 document (validated by swagger-parser)', async () => {
    const res = await app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const document = res.json();
    expect(document.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(document))).resolves.toBeDefined();
  });

  it('documents every route with its parameters, responses and the error body', async () => {
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const paths = Object.keys(document.paths);
    for (const route of REST_ADAPTERS.flatMap((a) => a.routes)) expect(paths).toContain(route.url.replace(/:(\w+)/g, '{$1}'));
    const cities = document.paths['/references/cities'].get;
    expect(cities.parameters).toEqual([expect.objectContaining({ name: 'province_id', in: 'query', required: true })]);
    expect(Object.keys(cities.responses)).toEqual(expect.arrayContaining(['200', '400', '500', '503']));
    expect(document.components.schemas.ErrorBody.required).toEqual(['error', 'code']);
    expect(paths).not.toContain('/metrics');
  });

  it('serves a human reference page at /docs', async () => {
    const res = await app.inject({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('swagger');
  });
});

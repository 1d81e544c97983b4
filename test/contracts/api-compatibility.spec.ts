import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { buildSchema, isEnumType, isInputObjectType, isInterfaceType, isObjectType } from 'graphql';
import type { FastifyInstance } from 'fastify';
import { projectRoot } from '@lib/config/project-root';
import { loadConfig } from '@lib/config/config';
import { MIN_DEPRECATION_DAYS, checkDeprecation, deprecationHeaders } from '@lib/rest/deprecation';
import { NO_OPERATIONS } from '@lib/rest/operation-executor';
import { createRestApp } from '@lib/rest/rest-app';
import type { RestAdapter } from '@lib/rest/route';
import { Type } from '@sinclair/typebox';
import { REST_ADAPTERS } from '@rest-adapters';
import {
  CHANGELOG,
  GRAPHQL_SNAPSHOT,
  REST_SNAPSHOT,
  type RestSignature,
  announcedBreakingChanges,
  changelogReleases,
  compareWithRelease,
  currentApiSchemaSdl,
  graphqlBreakingChanges,
  latestRelease,
  parseSignature,
  restBreakingChanges,
  restSignature,
  serializeSignature,
} from '@scripts/api-compatibility';
import { releaseChangelog } from '@scripts/api-release';
import { openApiDocument } from '@scripts/openapi';
import { UTC_TIMES } from '@lib/time/api-time';

/**
 * The compatibility promise (docs/api/versioning.md): the current OpenAPI document and the supergraph's API schema
 * against the last release's snapshot (docs/api/releases/), failing on a breaking change CHANGELOG.md's Unreleased
 * section does not announce; the comparator itself on deliberately changed copies; deprecations keep the policy.
 */
describe('API compatibility with the last release', () => {
  const root = projectRoot();
  const changelog = readFileSync(path.join(root, CHANGELOG), 'utf8');
  let document: Record<string, any>;
  let current: RestSignature;
  let graphqlSdl: string;
  let released: RestSignature;
  let releasedSdl: string;

  beforeAll(async () => {
    document = await openApiDocument();
    current = restSignature(document);
    graphqlSdl = currentApiSchemaSdl(root);
    const latest = latestRelease(root)!;
    released = parseSignature(readFileSync(path.join(latest.dir, REST_SNAPSHOT), 'utf8'));
    releasedSdl = readFileSync(path.join(latest.dir, GRAPHQL_SNAPSHOT), 'utf8');
  });

  it('has no unannounced breaking change since the last release (REST and GraphQL)', () => {
    const latest = latestRelease(root)!;
    const { breaking, unannounced } = compareWithRelease(latest.dir, { rest: current, graphqlSdl }, changelog);
    expect(unannounced).toEqual([]);
    // Every announced change is still a breaking change here (no stale entries).
    const found = new Set(breaking.map((change) => change.id));
    expect([...announcedBreakingChanges(changelog)].filter((id) => !found.has(id))).toEqual([]);
  });

  it('the changelog names the last release, dated, with an Unreleased section above it', () => {
    const latest = latestRelease(root)!;
    expect(changelog).toMatch(/^## \[Unreleased\]$/m);
    expect(changelog.indexOf('## [Unreleased]')).toBeLessThan(changelog.indexOf(`## [${latest.version}]`));
    expect(changelogReleases(changelog)[0]).toEqual({ version: latest.version, date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    expect(changelogReleases(changelog).map((r) => r.version)).toEqual(
      readdirSync(path.dirname(latest.dir))
        .filter((name) => /^\d+\.\d+\.\d+$/.test(name))
        .sort()
        .reverse(),
    );
  });

  it('the snapshot format reads back what it wrote', () => {
    expect(parseSignature(serializeSignature(current))).toEqual(current);
  });

  describe('the REST comparator on changed copies of the current contract', () => {
    const copy = () => structuredClone(current);
    const ids = (after: RestSignature) => restBreakingChanges(current, after).map((change) => change.id);

    it('a deliberately changed OpenAPI document: a field dropped from a shared response schema, an event type dropped', () => {
      const changed = structuredClone(document);
      const merchant = changed.components.schemas.PspMerchant;
      delete merchant.properties.merchant_name;
      merchant.required = merchant.required.filter((name: string) => name !== 'merchant_name');
      const eventType = changed.paths['/psp/v1/events'].post.requestBody.content['application/json'].schema.properties.event_type;
      eventType.anyOf = eventType.anyOf.filter((branch: { enum: string[] }) => branch.enum[0] !== 'transaction.reversed');
      const found = restBreakingChanges(current, restSignature(changed)).map((change) => change.id);
      expect(found).toEqual(
        expect.arrayContaining([
          'REST FIELD_REMOVED GET /api/psp/v1/merchants response 200/items/*/merchant_name',
          'REST ENUM_VALUE_REMOVED POST /psp/v1/events body/event_type "transaction.reversed"',
        ]),
      );
      expect(found.filter((id) => !id.includes('merchant_name') && !id.includes('transaction.reversed'))).toEqual([]);
    });

    it('finds nothing between the contract and itself', () => {
      expect(ids(copy())).toEqual([]);
    });

    it('a removed operation', () => {
      const after = copy();
      after.operations = after.operations.filter((op) => op !== 'GET /references/cities');
      for (const key of Object.keys(after.nodes)) if (key.startsWith('GET /references/cities ')) delete after.nodes[key];
      expect(ids(after)).toEqual(['REST OPERATION_REMOVED GET /references/cities']);
    });

    it('a removed response field, named once (not its children)', () => {
      const after = copy();
      const key = 'GET /api/psp/v1/merchants response 200/items/*/outlets';
      expect(after.nodes[key]).toBeDefined();
      for (const k of Object.keys(after.nodes)) if (k === key || k.startsWith(`${key}/`)) delete after.nodes[k];
      expect(ids(after)).toEqual([`REST FIELD_REMOVED ${key}`]);
    });

    it('a removed enum value (request or response); an added response enum value is not breaking', () => {
      const after = copy();
      const request = 'POST /psp/v1/events body/event_type';
      after.nodes[request].enum = after.nodes[request].enum!.filter((v) => v !== 'qris.payment.refunded');
      const response = 'GET /api/psp/v1/merchants response 200/items/*/status';
      after.nodes[response].enum = [...after.nodes[response].enum!, 'archived'];
      expect(ids(after)).toEqual([`REST ENUM_VALUE_REMOVED ${request} "qris.payment.refunded"`]);
    });

    it('a newly required request field, a field that became required, and a new optional field (not breaking)', () => {
      const after = copy();
      after.nodes['POST /psp/v1/events body/bank_branch'] = { type: 'string', required: true };
      after.nodes['POST /psp/v1/events body/note'] = { type: 'string', required: false };
      after.nodes['GET /api/psp/v1/merchants query/region'] = { type: 'string', required: true };
      after.nodes['POST /psp/v1/events body/mid'].required = true;
      expect(ids(after).sort()).toEqual(
        [
          'REST FIELD_BECAME_REQUIRED POST /psp/v1/events body/mid',
          'REST REQUIRED_FIELD_ADDED GET /api/psp/v1/merchants query/region',
          'REST REQUIRED_FIELD_ADDED POST /psp/v1/events body/bank_branch',
        ].sort(),
      );
    });

    it('type changes: a request accepting less, a response answering a new type; widening a request is not breaking', () => {
      const after = copy();
      after.nodes['POST /psp/v1/events body/gross_amount'].type = 'string';
      after.nodes['GET /api/psp/v1/merchants response 200/items/*/merchant_name'].type = 'null|string';
      after.nodes['POST /psp/v1/events body/mid'].type = 'integer|string';
      expect(restBreakingChanges(current, after)).toEqual([
        { id: 'REST TYPE_CHANGED GET /api/psp/v1/merchants response 200/items/*/merchant_name', detail: 'string → null|string' },
        { id: 'REST TYPE_CHANGED POST /psp/v1/events body/gross_amount', detail: 'integer → string' },
      ]);
    });

    it('additions are not breaking: a new operation, response fields, the error body’s details', () => {
      const after = copy();
      after.operations.push('GET /api/psp/v1/banks');
      after.nodes['GET /api/psp/v1/banks response 200'] = { type: 'object', required: true };
      after.nodes['GET /api/psp/v1/banks query/code'] = { type: 'string', required: true };
      after.nodes['GET /api/psp/v1/merchants response 200/items/*/brand'] = { type: 'string', required: true };
      expect(ids(after)).toEqual([]);
      // The release before error details: details were added since, and break nothing.
      expect(restBreakingChanges(released, current).filter((c) => c.id.includes('ErrorBody'))).toEqual([]);
    });

    it('an announced breaking change passes; the same change unannounced fails', () => {
      const after = copy();
      after.operations = after.operations.filter((op) => op !== 'GET /references/cities');
      const id = 'REST OPERATION_REMOVED GET /references/cities';
      const announce = (text: string) => changelog.replace('## [Unreleased]\n', `## [Unreleased]\n\n### Breaking\n\n${text}\n`);
      expect(announcedBreakingChanges(announce(`- \`${id}\` — use /references/regencies.`)).has(id)).toBe(true);
      expect(announcedBreakingChanges(announce(`- ${id} (no backticks: not an announcement)`)).has(id)).toBe(false);
      expect(announcedBreakingChanges(changelog).has(id)).toBe(false);
      // Only the Unreleased section counts: the same line under a release does not announce a new change.
      const underRelease = changelog.replace(/^## \[1\.0\.0\].*$/m, (heading) => `${heading}\n\n### Breaking\n\n- \`${id}\``);
      expect(announcedBreakingChanges(underRelease).has(id)).toBe(false);
    });
  });

  describe('the GraphQL comparator (graphql-js findBreakingChanges) on changed copies of the API schema', () => {
    const schema = () => buildSchema(graphqlSdl);

    it('a removed field and a removed enum value are breaking; a new field is not', () => {
      const query = schema().getQueryType()!;
      const [fieldName] = Object.keys(query.getFields());
      const removed = graphqlSdl.replace(new RegExp(`(type Query \\{[^}]*?)\\n  ${fieldName}[^\\n]*`), '$1');
      const changes = graphqlBreakingChanges(graphqlSdl, removed).map((c) => c.id);
      expect(changes).toEqual([`GraphQL FIELD_REMOVED Query.${fieldName} was removed.`]);

      const added = graphqlSdl.replace('type Query {', 'type Query {\n  releaseNotes: String');
      expect(graphqlBreakingChanges(graphqlSdl, added)).toEqual([]);

      const enumType = Object.values(schema().getTypeMap()).find((t) => isEnumType(t) && !t.name.startsWith('__'));
      if (enumType && isEnumType(enumType)) {
        const value = enumType.getValues()[0].name;
        const withoutValue = graphqlSdl.replace(new RegExp(`(enum ${enumType.name} \\{[^}]*?)\\n  ${value}\\b[^\\n]*`), '$1');
        expect(graphqlBreakingChanges(graphqlSdl, withoutValue).map((c) => c.id)).toEqual([
          `GraphQL VALUE_REMOVED_FROM_ENUM ${value} was removed from enum type ${enumType.name}.`,
        ]);
      }
    });

    it('the current API schema against the release: no breaking change', () => {
      expect(graphqlBreakingChanges(releasedSdl, graphqlSdl)).toEqual([]);
    });
  });

  describe('deprecation (docs/api/versioning.md)', () => {
    it(`a deprecated REST operation lives at least ${MIN_DEPRECATION_DAYS} days and names its replacement`, () => {
      expect(() => checkDeprecation('GET /x', { since: '2027-01-01', sunset: '2027-03-01', replacement: 'GET /y' })).toThrow(/180 days/);
      expect(() => checkDeprecation('GET /x', { since: '2027-01-01', sunset: '2027-07-01', replacement: ' ' })).toThrow(/replacement/);
      expect(() => checkDeprecation('GET /x', { since: '2027-01-01', sunset: '2027-07-01', replacement: 'GET /y' })).not.toThrow();
      for (const route of REST_ADAPTERS.flatMap((adapter) => adapter.routes)) {
        if (route.deprecated) checkDeprecation(`${route.method} ${route.url}`, route.deprecated);
      }
    });

    it('a deprecated GraphQL field, argument or enum value gives its replacement and a sunset date in its reason', () => {
      const problems: string[] = [];
      const reasonOk = (reason: string | null | undefined) => !!reason && /\bSunset \d{4}-\d{2}-\d{2}\b/.test(reason);
      for (const type of Object.values(buildSchema(graphqlSdl).getTypeMap())) {
        if (type.name.startsWith('__')) continue;
        if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
          for (const field of Object.values(type.getFields())) {
            if (field.deprecationReason !== undefined && field.deprecationReason !== null && !reasonOk(field.deprecationReason)) {
              problems.push(`${type.name}.${field.name}`);
            }
            for (const arg of 'args' in field ? field.args : []) {
              if (arg.deprecationReason && !reasonOk(arg.deprecationReason)) problems.push(`${type.name}.${field.name}(${arg.name})`);
            }
          }
        }
        if (isEnumType(type)) {
          for (const value of type.getValues())
            if (value.deprecationReason && !reasonOk(value.deprecationReason)) problems.push(`${type.name}.${value.name}`);
        }
      }
      expect(problems).toEqual([]);
    });

    describe('a deprecated REST operation on a running app', () => {
      let app: FastifyInstance;
      const adapter: RestAdapter = {
        name: 'legacy',
        description: 'A deprecated operation for this test.',
        times: () => UTC_TIMES,
        tags: [{ name: 'legacy', description: 'Operations kept for older clients (this test).', audience: 'internal' }],
        routes: [
          {
            method: 'GET',
            url: '/legacy/ping',
            summary: 'Ping (deprecated)',
            tags: ['legacy'],
            operationId: 'LegacyPing',
            schema: {
              querystring: Type.Object({ n: Type.Optional(Type.Integer({ minimum: 1 })) }),
              response: { 200: Type.Object({ ok: Type.Boolean() }) },
            },
            deprecated: { since: '2026-12-01', sunset: '2027-06-01', replacement: 'Use GET /healthz.' },
            examples: { responses: { 200: { ok: true } } },
            run: async () => ({ ok: true }),
          },
        ],
      };

      beforeAll(async () => {
        app = await createRestApp({
          config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
          adapters: [adapter],
          operations: async () => NO_OPERATIONS,
        });
      });
      afterAll(() => app.close());

      it('answers Deprecation (RFC 9745), Sunset (RFC 8594) and Link rel="deprecation", errors included; the document marks it', async () => {
        const expected = {
          deprecation: `@${Date.parse('2026-12-01T00:00:00Z') / 1000}`,
          sunset: 'Tue, 01 Jun 2027 00:00:00 GMT',
          link: expect.stringContaining('rel="deprecation"'),
        };
        expect(deprecationHeaders(adapter.routes[0].deprecated!)).toEqual(expected);
        const ok = await app.inject({ method: 'GET', url: '/legacy/ping' });
        expect([ok.statusCode, ok.headers]).toEqual([200, expect.objectContaining(expected)]);
        const bad = await app.inject({ method: 'GET', url: '/legacy/ping?n=0' });
        expect([bad.statusCode, bad.headers]).toEqual([400, expect.objectContaining(expected)]);
        const operation = (await app.inject({ method: 'GET', url: '/openapi.json' })).json().paths['/legacy/ping'].get;
        expect(operation.deprecated).toBe(true);
        expect(operation.description).toMatch(
          /^\*\*Deprecated\*\* since 2026-12-01; may be removed after 2027-06-01\. Use GET \/healthz\./,
        );
        expect(Object.keys(operation.responses['200'].headers)).toEqual(expect.arrayContaining(['Deprecation', 'Sunset', 'Link']));
      });
    });
  });

  it('cutting a release moves the Unreleased entries under the new version and leaves Unreleased empty', () => {
    const before = '# Changelog\n\n## [Unreleased]\n\n### Added\n\n- `details`.\n\n## [1.0.0] - 2026-11-29\n\nFirst.\n';
    expect(releaseChangelog(before, '1.1.0', '2027-01-15')).toBe(
      '# Changelog\n\n## [Unreleased]\n\n## [1.1.0] - 2027-01-15\n\n### Added\n\n- `details`.\n\n## [1.0.0] - 2026-11-29\n\nFirst.\n',
    );
  });
});

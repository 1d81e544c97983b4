import fc from 'fast-check';
import { MAX_JSON_DEPTH } from '@lib/http/request-limits';
import type { RestRoute } from '@lib/rest/route';
import { sessionFor } from '../support/core-auth';
import {
  ALL_ROUTES,
  VALUES_BY_TYPE,
  acceptedTypes,
  authedRequest,
  paramNames,
  pathOf,
  propertiesOf,
  sampleValue,
  securityStackOfSuite,
} from '../support/route-requests';
import { DEMO } from '@lib/domain/demo/demo-ids';

/**
 * Property-based malformed requests for every REST route (REST_ADAPTERS), with valid credentials: wrong types,
 * missing fields, huge, unicode and NUL strings, lone surrogates, deep JSON (beyond MAX_JSON_DEPTH: always 400),
 * dates of years PostgreSQL cannot hold, broken JSON, wrong content types, junk query parameters, malformed path ids. Never a 5xx; every error is the error body; a request malformed by construction
 * is a 4xx (a 400's `details` each with a JSON pointer and rule); and no table gains or loses a row unless some request of that route was accepted (2xx).
 */
const RUNS_PER_ROUTE = 20;
const SEED = 20261124;

const oddString = fc.oneof(
  fc.string({ maxLength: 24 }),
  fc.string({ unit: 'binary', maxLength: 24 }),
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\u202eabc',
    '\ud800',
    'a\udfffb',
    'x\ud83d',
    '😀'.repeat(40),
    "' or 1=1 --",
    '%00',
    '../../etc/passwd',
    ' ',
    '',
    '0x1p3',
    '-0',
    '1e309',
    'null',
    '[object Object]',
  ),
  fc.constant('x'.repeat(100_000)),
);

/** Odd strings that can be percent-encoded (a lone surrogate cannot): for paths and query strings. */
const wellFormed = oddString.filter((v) => !/\p{Cs}/u.test(v));
/**
 * Names of junk query parameters and extra body properties, made once: fast-check prepares a string arbitrary's
 * shrinking slices as it is made, 1.7 s of CPU over this file's routes when each route made its own.
 */
const junkName = fc.string({ maxLength: 12 });
const extraName = fc.string({ maxLength: 10 });

interface Generated {
  label: string;
  /** Malformed whatever the route does with it: the answer must be a 4xx. */
  invalid: boolean;
  path?: string;
  query?: string;
  body?: string;
  contentType?: string | null;
}

function nestedArrays(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

function deepJson(depth: number): string {
  return `${'{"a":['.repeat(depth)}1${']}'.repeat(depth)}`;
}

/** Generators of malformed requests for one route, chosen from what its schemas declare. */
function malformedRequests(route: RestRoute): fc.Arbitrary<Generated> {
  const bodySchema = route.schema.body;
  const { properties, required } = propertiesOf(bodySchema);
  const typed = Object.entries(properties).filter(([, schema]) => acceptedTypes(schema).size > 0);
  const base = bodySchema ? (sampleValue(bodySchema, 'body') as Record<string, unknown>) : {};
  const hasBody = bodySchema !== undefined;
  const params = paramNames(route);
  const junkQuery = fc
    .dictionary(
      fc.oneof(junkName, fc.constantFrom(...Object.keys(propertiesOf(route.schema.querystring).properties), 'limit', '__proto__')),
      wellFormed,
      { maxKeys: 4 },
    )
    .map((entries) =>
      Object.entries(entries)
        .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
        .join('&'),
    );
  // Date and date-time properties (years PostgreSQL cannot hold or RFC 3339 does not allow): always a 4xx.
  const dated = typed.filter(([, schema]) => ['date', 'date-time'].includes((schema as { format?: string }).format ?? ''));
  const options: fc.Arbitrary<Generated>[] = [
    fc
      .record({ query: junkQuery, body: fc.constant(hasBody ? '{' : undefined) })
      .map(({ query, body }) => ({ label: 'junk query parameters', invalid: hasBody, query, body })),
    fc
      .constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', null)
      .map((contentType) => ({
        label: `content type ${contentType}`,
        invalid: hasBody && contentType !== null,
        body: JSON.stringify(base),
        contentType,
      })),
    fc
      .constantFrom(
        '{"a":',
        '\u0000',
        '{"__proto__":{"polluted":1}}',
        'null',
        '[]',
        '"text"',
        '12',
        'tru',
        deepJson(5000),
        `[${'['.repeat(20_000)}${']'.repeat(20_000)}]`,
      )
      .map((body) => ({
        label: 'broken, deep or non-object JSON',
        invalid: hasBody,
        body,
      })),
  ];
  if (typed.length > 0) {
    options.push(
      fc
        .record({
          picks: fc.uniqueArray(fc.constantFrom(...typed), { minLength: 1, maxLength: 3, selector: ([name]) => name }),
          which: fc.nat(),
          extra: fc.dictionary(extraName, oddString, { maxKeys: 3 }),
          deep: fc.boolean(),
        })
        .map(({ picks, which, extra, deep }) => {
          const body: Record<string, unknown> = { ...extra, ...base };
          for (const [name, schema] of picks) {
            const accepted = acceptedTypes(schema);
            const wrong = Object.entries(VALUES_BY_TYPE).filter(
              ([type]) => !accepted.has(type) && !(type === 'integer' && accepted.has('number')),
            );
            const values = wrong.flatMap(([, v]) => v);
            body[name] =
              deep && !accepted.has('object') && !accepted.has('array') ? JSON.parse(deepJson(2000)) : values[which % values.length];
          }
          return { label: `wrong types: ${picks.map(([n]) => n).join(', ')}`, invalid: true, body: JSON.stringify(body) };
        }),
      // Type-correct but odd strings everywhere: NUL bytes, lone surrogates, 100 kB, injection text.
      fc.array(oddString, { minLength: typed.length, maxLength: typed.length }).map((strings) => {
        const body: Record<string, unknown> = { ...base };
        typed.forEach(([name, schema], i) => {
          if (acceptedTypes(schema).has('string')) body[name] = strings[i];
        });
        return { label: 'odd strings in string fields', invalid: false, body: JSON.stringify(body) };
      }),
    );
  }
  if (hasBody) {
    // Text PostgreSQL cannot store, and nesting beyond MAX_JSON_DEPTH, in an extra property of an otherwise valid body.
    options.push(
      fc
        .constantFrom(
          `"a\\ud800b"`,
          `"\\udc00"`,
          `"a\\u0000b"`,
          `{"k\\ud800":1}`,
          `{"k\\u0000":1}`,
          nestedArrays(MAX_JSON_DEPTH + 1),
          nestedArrays(5000),
        )
        .map((extra) => {
          const rest = JSON.stringify(base).slice(1);
          return {
            label: 'unstorable text or deep nesting in an extra property',
            // Too deep is refused as it is parsed; unstorable text only where the schema keeps unknown properties.
            invalid: extra.startsWith('['),
            body: `{"extra_property":${extra}${rest === '}' ? '' : ','}${rest}`,
          };
        }),
    );
  }
  if (dated.length > 0) {
    options.push(
      fc
        .record({
          pick: fc.constantFrom(...dated),
          year: fc.constantFrom('0000', '10000', '-0001', '99999'),
        })
        .map(({ pick: [name, schema], year }) => ({
          label: `year ${year} in ${name}`,
          invalid: true,
          body: JSON.stringify({
            ...base,
            [name]: (schema as { format?: string }).format === 'date' ? `${year}-01-01` : `${year}-01-01T00:00:00Z`,
          }),
        })),
    );
  }
  if (required.length > 0) {
    options.push(
      fc.subarray(required, { minLength: 1 }).map((missing) => {
        const body = { ...base };
        for (const name of missing) delete body[name];
        return { label: `missing ${missing.join(', ')}`, invalid: true, body: JSON.stringify(body) };
      }),
    );
  }
  if (params.length > 0) {
    options.push(
      fc
        .record({ name: fc.constantFrom(...params), value: wellFormed.filter((v) => v.length > 0 && v.length < 5000) })
        .map(({ name, value }) => ({
          label: `malformed :${name}`,
          invalid: true,
          path: pathOf(route, { [name]: value }),
          body: hasBody ? JSON.stringify(base) : undefined,
        })),
    );
  }
  // Counterexamples are reported by label and size, not by their 100 kB bodies.
  return fc.oneof(...options).map((generated) =>
    Object.assign(generated, {
      [fc.toStringMethod]: () => `${generated.label} (path ${generated.path ?? '-'}, body ${generated.body?.length ?? 0} bytes)`,
    }),
  );
}

describe('bad input: malformed requests for every REST route', () => {
  const suite = securityStackOfSuite();

  it('covers every route of every adapter', () => {
    expect(ALL_ROUTES.length).toBeGreaterThan(50);
    expect(ALL_ROUTES.map((r) => r.url)).toEqual(
      expect.arrayContaining(['/psp/v1/events', expect.stringMatching(/^\/merchant\/poslite\//)]),
    );
  });

  it.each(ALL_ROUTES.map((route) => [`${route.method} ${route.url}`, route] as const))('%s', async (_name, route) => {
    // A session of its own per route: a malformed request that still logs out must not starve the next route.
    const routeCredentials = { ...suite.credentials, userAuthorization: (await sessionFor(suite.stack, DEMO.owner.userId)).authorization };
    const before = await suite.stack.database.tableCounts();
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(malformedRequests(route), async (generated) => {
        const res = await suite.stack.rest.inject(authedRequest(route, routeCredentials, generated));
        const context = `${generated.label} → ${res.statusCode} ${res.body.slice(0, 300)}`;
        expect([context, res.statusCode < 500]).toEqual([context, true]);
        if (res.statusCode >= 400) {
          const body = res.json();
          // The error body, plus what the route documents for that status (the intake's 422 names the stored record).
          const documented = (route.schema.response[res.statusCode] as { properties?: Record<string, unknown> } | undefined)?.properties;
          expect([
            context,
            Object.keys(body).filter(
              (k) => !['error', 'code', 'retry_after_secs', 'details', ...Object.keys(documented ?? {})].includes(k),
            ),
            typeof body.error,
            typeof body.code,
          ]).toEqual([context, [], 'string', 'string']);
          // A 400's details: each failing field by JSON pointer and rule (the first is the one `error` names).
          if (body.details !== undefined) {
            expect([context, res.statusCode]).toEqual([context, 400]);
            for (const detail of body.details as Record<string, unknown>[]) {
              expect([context, typeof detail.pointer, typeof detail.rule, typeof detail.message]).toEqual([
                context,
                'string',
                'string',
                'string',
              ]);
              expect([context, detail.pointer === '' || String(detail.pointer).startsWith('/')]).toEqual([context, true]);
            }
          }
        } else {
          accepted += 1;
        }
        if (generated.invalid) expect([context, res.statusCode >= 400 && res.statusCode < 500]).toEqual([context, true]);
      }),
      { numRuns: RUNS_PER_ROUTE, seed: SEED, endOnFailure: true },
    );
    if (accepted === 0 || route.method === 'GET') expect(await suite.stack.database.tableCounts()).toEqual(before);
  });
});

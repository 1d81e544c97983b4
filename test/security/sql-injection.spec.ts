import type { TSchema } from '@sinclair/typebox';
import { DEMO } from '@lib/domain/demo/demo-ids';
import type { RestRoute } from '@lib/rest/route';
import { adminQuery } from '../support/test-database';
import {
  ALL_ROUTES,
  acceptedTypes,
  authedRequest,
  paramNames,
  pathOf,
  propertiesOf,
  sampleValue,
  securityStackOfSuite,
} from '../support/route-requests';

/**
 * SQL-injection strings in every string parameter of every route (path, query, body), the rest of the request
 * plausible and authenticated as a demo tenant: never a 5xx, never another tenant's data in the answer, and no
 * table lost or lost rows.
 */
const PAYLOADS = [
  "' or 1=1 --",
  '"; drop table merchant.merchants; --',
  "x'); delete from catalog.products; --",
  '\u0000',
  '%27',
  '\u2019 or \u20181\u2019=\u20181',
  "1' union select null, version() --",
];

/** Names and ids of tenants none of the suite's callers may see. */
const FOREIGN = [DEMO.otherMerchants[0].id, DEMO.otherMerchants[0].name, DEMO.otherMerchants[0].outlets[0].nmid, 'PostgreSQL 1'];

interface Slot {
  where: 'path' | 'query' | 'body';
  name: string;
}

function stringSlots(route: RestRoute): Slot[] {
  const strings = (schema: TSchema | undefined) =>
    Object.entries(propertiesOf(schema).properties)
      .filter(([, s]) => acceptedTypes(s).has('string'))
      .map(([name]) => name);
  return [
    ...paramNames(route).map((name) => ({ where: 'path' as const, name })),
    ...strings(route.schema.querystring).map((name) => ({ where: 'query' as const, name })),
    ...strings(route.schema.body).map((name) => ({ where: 'body' as const, name })),
  ];
}

describe('SQL injection in every string parameter', () => {
  const suite = securityStackOfSuite();

  const routes = ALL_ROUTES.filter((route) => stringSlots(route).length > 0);
  it.each(routes.map((route) => [`${route.method} ${route.url}`, route] as const))('%s', async (_name, route) => {
    const before = await suite.stack.database.tableCounts();
    const bodySchema = route.schema.body;
    for (const slot of stringSlots(route)) {
      for (const payload of PAYLOADS) {
        const body = bodySchema ? { ...(sampleValue(bodySchema, 'body') as Record<string, unknown>) } : undefined;
        if (slot.where === 'body' && body) body[slot.name] = payload;
        const query = slot.where === 'query' ? `${encodeURIComponent(slot.name)}=${encodeURIComponent(payload)}` : undefined;
        const path = slot.where === 'path' ? pathOf(route, { [slot.name]: payload }) : undefined;
        const res = await suite.stack.rest.inject(
          authedRequest(route, suite.credentials, { path, query, body: body ? JSON.stringify(body) : undefined }),
        );
        const context = `${slot.where} ${slot.name} = ${JSON.stringify(payload)} → ${res.statusCode} ${res.body.slice(0, 200)}`;
        expect([context, res.statusCode < 500]).toEqual([context, true]);
        expect([context, FOREIGN.filter((marker) => res.body.includes(marker))]).toEqual([context, []]);
      }
    }
    const after = await suite.stack.database.tableCounts();
    const shrunk = Object.keys(before).filter((table) => !(table in after) || after[table] < before[table]);
    expect(shrunk).toEqual([]);
  });

  it('leaves every table in place', async () => {
    const [{ n }] = await adminQuery<{ n: number }>(
      suite.stack.database.adminUrl,
      `select count(*)::int as n from merchant.merchants where id = $1`,
      [DEMO.merchantId],
    );
    expect(n).toBe(1);
  });
});

import { Type } from '@sinclair/typebox';
import type { Principal } from '../auth/principal';
import type { FixedOperationDocument } from './operation';
import { type RestRoute, defineRoute } from './route';

/**
 * The route shape's rules are types: `npm run typecheck` compiles this file, and each `@ts-expect-error` fails it
 * if the line below it ever compiles. At run time the definitions are only data.
 */
const schema = { querystring: Type.Object({ q: Type.String() }), response: { 200: Type.Object({ n: Type.Integer() }) } };
const base = { method: 'GET' as const, url: '/t', summary: 't', tags: [], operationId: 'T', schema };
const authenticate = async (): Promise<Principal> => ({ kind: 'anonymous' });
const Count: FixedOperationDocument<{ count: number }, { q: string }> = {
  name: 'Count',
  document: 'query Count($q: String!) { count(q: $q) }',
};

const routes: RestRoute<typeof schema>[] = [
  defineRoute({ ...base, run: async ({ query }, { execute }) => ({ n: (await execute(Count, { q: query.q })).count }) }),
  defineRoute({ ...base, cache: 'public', run: async () => ({ n: 1 }) }),
  defineRoute({ ...base, authenticate, cache: 'per-principal', cacheSecs: 30, run: async () => ({ n: 1 }) }),
  defineRoute({
    ...base,
    authenticate,
    run: async (_input, { status, header }) => {
      status(503);
      header('retry-after', '5');
      return { n: 0 };
    },
  }),
  // @ts-expect-error a public cache is shared by every caller: it cannot be authenticated
  defineRoute({ ...base, authenticate, cache: 'public', run: async () => ({ n: 1 }) }),
  // @ts-expect-error a per-principal cache needs a principal
  defineRoute({ ...base, cache: 'per-principal', cacheSecs: 30, run: async () => ({ n: 1 }) }),
  // @ts-expect-error a cached answer is a stored body: its route cannot set the status
  defineRoute({ ...base, cache: 'public', run: async (_input, { status }) => (status(201), { n: 1 }) }),
  // @ts-expect-error the answer must be a documented body
  defineRoute({ ...base, run: async () => ({ m: 1 }) }),
  // @ts-expect-error the operation's variables are checked (q is a string)
  defineRoute({ ...base, run: async (_input, { execute }) => ({ n: (await execute(Count, { q: 1 })).count }) }),
  // @ts-expect-error and so is its result (count is a number)
  defineRoute({ ...base, run: async (_input, { execute }) => ({ n: (await execute(Count, { q: '' })).count.length }) }),
];

describe('route shape', () => {
  it('declares each kind of route with one run function', () => {
    expect(routes.map((route) => [route.cache ?? 'none', typeof route.run])).toEqual([
      ['none', 'function'],
      ['public', 'function'],
      ['per-principal', 'function'],
      ['none', 'function'],
      ['public', 'function'],
      ['per-principal', 'function'],
      ['public', 'function'],
      ['none', 'function'],
      ['none', 'function'],
      ['none', 'function'],
    ]);
  });
});

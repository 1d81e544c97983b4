import { type GraphQLResolveInfo, buildSchema, execute, parse } from 'graphql';
import { selectedPaths } from './selection';

describe('selectedPaths', () => {
  const schema = buildSchema(`
    type Terminal { id: ID, model: String }
    type Merchant { id: ID, nmid: String, terminal: Terminal, outlets: [Outlet] }
    type Outlet { id: ID, terminals: [Terminal], merchant: Merchant }
    type Query { outlet: Outlet }
  `);
  const pathsOf = async (query: string, variableValues: Record<string, unknown> = {}, depth?: number) => {
    let seen: Set<string> | undefined;
    const rootValue = {
      outlet: (_args: unknown, _ctx: unknown, info: GraphQLResolveInfo) => {
        seen = selectedPaths(info, depth);
        return null;
      },
    };
    await execute({ schema, document: parse(query), rootValue, variableValues });
    return [...seen!].sort();
  };

  it('lists the fields below the resolver, through named and inline fragments', async () => {
    const query = `
      query { outlet { id ...Target ... on Outlet { merchant { nmid } } } }
      fragment Target on Outlet { terminals { id } merchant { terminal { model } } }`;
    expect(await pathsOf(query)).toEqual(['id', 'merchant', 'merchant.nmid', 'merchant.terminal', 'terminals', 'terminals.id']);
  });

  it('applies @include and @skip with the operation’s variables', async () => {
    const query = `query ($outlets: Boolean!, $skipNmid: Boolean!) {
      outlet { merchant { outlets @include(if: $outlets) { id } nmid @skip(if: $skipNmid) } }
    }`;
    expect(await pathsOf(query, { outlets: false, skipNmid: true })).toEqual(['merchant']);
    expect(await pathsOf(query, { outlets: true, skipNmid: false })).toEqual(['merchant', 'merchant.nmid', 'merchant.outlets']);
  });

  it('stops at the depth asked for', async () => {
    expect(await pathsOf('{ outlet { merchant { terminal { model } } } }', {}, 1)).toEqual(['merchant']);
  });
});

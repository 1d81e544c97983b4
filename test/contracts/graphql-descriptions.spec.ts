import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Supergraph } from '@apollo/federation-internals';
import { type GraphQLSchema, TypeInfo, getNamedType, isScalarType, parse, visit, visitWithTypeInfo } from 'graphql';
import { APP_OPERATIONS_DIR, SUPERGRAPH_FILE } from '@lib/federation/compose';

/**
 * Dashboards and the app read the schema's descriptions (the explorer's docs, generated types): every type, field and
 * argument the app's trusted operations select, and every root query field with its arguments and result type, has one.
 */
export function undocumented(api: GraphQLSchema): string[] {
  const missing = new Set<string>();
  const needsType = (name: string) => {
    const type = api.getType(name);
    if (type && !type.description && !(isScalarType(type) && ['String', 'Int', 'Float', 'Boolean', 'ID'].includes(type.name)))
      missing.add(name);
  };
  for (const file of readdirSync(APP_OPERATIONS_DIR).filter((f) => f.endsWith('.graphql'))) {
    const info = new TypeInfo(api);
    visit(
      parse(readFileSync(path.join(APP_OPERATIONS_DIR, file), 'utf8')),
      visitWithTypeInfo(info, {
        Field() {
          const parent = info.getParentType();
          const field = info.getFieldDef();
          if (!parent || !field || field.name.startsWith('__')) return;
          if (!field.description) missing.add(`${parent.name}.${field.name}`);
          if (parent !== api.getQueryType() && parent !== api.getMutationType()) needsType(parent.name);
          needsType(getNamedType(field.type).name);
          for (const arg of field.args) if (!arg.description) missing.add(`${parent.name}.${field.name}(${arg.name})`);
        },
      }),
    );
  }
  for (const [name, field] of Object.entries(api.getQueryType()!.getFields())) {
    if (name.startsWith('_')) continue;
    if (!field.description) missing.add(`Query.${name}`);
    for (const arg of field.args) if (!arg.description) missing.add(`Query.${name}(${arg.name})`);
    needsType(getNamedType(field.type).name);
  }
  return [...missing].sort();
}

describe('GraphQL schema descriptions', () => {
  it('describe everything the app operations and the root queries use', () => {
    const api = Supergraph.build(readFileSync(SUPERGRAPH_FILE, 'utf8')).apiSchema().toGraphQLJSSchema();
    expect(undocumented(api)).toEqual([]);
  });
});

import type { GraphQLSchema } from 'graphql';
import { buildFederatedSchema } from '../../../lib/federation/build-subgraph-schema';
import { outletReference } from './modules/outlet/outlet.reference';
import { MerchantOutletsResolver, OutletResolver } from './modules/outlet/outlet.resolver';

export function buildOutletSchema(): Promise<GraphQLSchema> {
  return buildFederatedSchema({ resolvers: [OutletResolver, MerchantOutletsResolver] }, outletReference);
}

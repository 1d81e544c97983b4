import type { GraphQLSchema } from 'graphql';
import { buildFederatedSchema } from '../../../lib/federation/build-subgraph-schema';
import { outletReference } from './modules/outlet/outlet.reference';
import { PosOutletResolver } from './modules/pos-outlet/pos-outlet.resolver';
import { MerchantOutletsResolver, OutletResolver } from './modules/outlet/outlet.resolver';
import { terminalReference } from './modules/terminal/terminal.reference';
import { MerchantTerminalResolver, OutletTerminalsResolver, TerminalResolver } from './modules/terminal/terminal.resolver';

export function buildOutletSchema(): Promise<GraphQLSchema> {
  return buildFederatedSchema(
    { resolvers: [OutletResolver, MerchantOutletsResolver, TerminalResolver, OutletTerminalsResolver, MerchantTerminalResolver, PosOutletResolver] },
    { ...outletReference, ...terminalReference },
  );
}

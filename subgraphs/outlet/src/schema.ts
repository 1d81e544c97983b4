import type { GraphQLSchema } from 'graphql';
import { buildFederatedSchema } from '@lib/federation/build-subgraph-schema';
import { outletReference } from './modules/outlet/outlet.reference';
import { PosOutletResolver } from './modules/pos-outlet/pos-outlet.resolver';
import { posOutletReference } from './modules/pos-outlet/pos-outlet.reference';
import { MerchantOutletsResolver, OutletResolver } from './modules/outlet/outlet.resolver';
import { MerchantDeviceActivityResolver } from './modules/device-activity/device-activity.resolver';
import { PaymentTargetResolver } from './modules/payment-target/payment-target.resolver';
import { PspOutletResolver } from './modules/merchant-profile/merchant-profile.resolver';
import { MerchantPspPairingsResolver } from './modules/psp-pairing/psp-pairing.resolver';
import {
  MerchantSettlementAccountResolver,
  OutletSettlementAccountResolver,
  SettlementAccountResolver,
} from './modules/settlement-account/settlement-account.resolver';
import { terminalReference } from './modules/terminal/terminal.reference';
import { MerchantTerminalResolver, OutletTerminalsResolver, TerminalResolver } from './modules/terminal/terminal.resolver';

export function buildOutletSchema(): Promise<GraphQLSchema> {
  return buildFederatedSchema(
    {
      resolvers: [
        OutletResolver,
        MerchantOutletsResolver,
        TerminalResolver,
        OutletTerminalsResolver,
        MerchantTerminalResolver,
        MerchantPspPairingsResolver,
        MerchantDeviceActivityResolver,
        PaymentTargetResolver,
        PosOutletResolver,
        PspOutletResolver,
        SettlementAccountResolver,
        MerchantSettlementAccountResolver,
        OutletSettlementAccountResolver,
      ],
    },
    { ...outletReference, ...terminalReference, ...posOutletReference },
  );
}

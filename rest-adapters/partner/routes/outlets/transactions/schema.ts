import { type Static, Type } from '@sinclair/typebox';
import { eitherContract } from '@rest-adapters/partner/routes/partner-data';
import { TransactionsA, TransactionsB } from '@rest-adapters/partner/routes/merchants/transactions/schema';

const outletId = Type.String({ format: 'uuid' });
const { merchant_id: merchantIdA, ...restA } = TransactionsA.properties;
const { merchant_id: merchantIdB, ...restB } = TransactionsB.properties;

/** The merchant transactions bodies (both contracts) with the outlet's id after merchant_id. */
export const OutletTransactionsA = Type.Object(
  { merchant_id: merchantIdA, outlet_id: outletId, ...restA },
  { additionalProperties: false, title: 'PartnerOutletTransactionsA' },
);
export const OutletTransactionsB = Type.Object(
  { merchant_id: merchantIdB, outlet_id: outletId, ...restB },
  { additionalProperties: false, title: 'PartnerOutletTransactionsB' },
);
export type OutletTransactionsA = Static<typeof OutletTransactionsA>;
export type OutletTransactionsB = Static<typeof OutletTransactionsB>;
export const OutletTransactionsResponse = eitherContract<OutletTransactionsA, OutletTransactionsB>(
  OutletTransactionsA,
  OutletTransactionsB,
);

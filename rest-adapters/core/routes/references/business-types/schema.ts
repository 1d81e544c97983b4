import { type Static, Type } from '@sinclair/typebox';

export const BusinessTypeItem = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  name: Type.String(),
  category_id: Type.Integer(),
  category_code: Type.String(),
  category_name: Type.String(),
  benchmark_transactions: Type.Integer({ description: 'Typical QRIS transactions per month.' }),
  benchmark_ticket_size: Type.Integer({ description: 'Typical ticket size, rupiah.' }),
  base_operational_cost_rate: Type.Number({ description: 'Operating cost as a fraction of revenue.' }),
});

export const BusinessTypesResponse = Type.Object({ items: Type.Array(BusinessTypeItem) });
export type BusinessTypesResponse = Static<typeof BusinessTypesResponse>;

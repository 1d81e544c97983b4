import { type Static, Type } from '@sinclair/typebox';
import { PspMerchant } from '../psp-merchant.schema';

export const SearchQuery = Type.Object(
  {
    phone: Type.Optional(Type.String({ minLength: 1, maxLength: 32, description: 'Exact; 08…, 628… and +628… are the same number.' })),
    email: Type.Optional(Type.String({ minLength: 3, maxLength: 254, description: 'Exact, case-insensitive.' })),
    npwp: Type.Optional(Type.String({ minLength: 1, maxLength: 32, description: 'Exact; dots and dashes are ignored.' })),
    nmid: Type.Optional(Type.String({ pattern: '^ID[0-9]{10,15}$', description: 'Exact.' })),
  },
  { additionalProperties: false },
);
export type SearchQuery = Static<typeof SearchQuery>;

export const SearchResponse = Type.Object({
  items: Type.Array(Type.Ref(PspMerchant)),
  meta: Type.Object({ returned_count: Type.Integer() }),
});
export type SearchResponse = Static<typeof SearchResponse>;

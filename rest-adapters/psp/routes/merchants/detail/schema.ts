import { type Static, Type } from '@sinclair/typebox';
import { IncludeQuery } from '../psp-merchant.schema';

export const DetailParams = Type.Object({ id: Type.String({ format: 'uuid', description: 'Merchant id.' }) });
export type DetailParams = Static<typeof DetailParams>;

export const DetailQuery = Type.Object(IncludeQuery, { additionalProperties: false });
export type DetailQuery = Static<typeof DetailQuery>;

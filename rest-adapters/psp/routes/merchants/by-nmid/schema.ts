import { type Static, Type } from '@sinclair/typebox';
import { IncludeQuery } from '../psp-merchant.schema';

export const ByNmidParams = Type.Object({
  nmid: Type.String({ pattern: '^ID[0-9]{10,15}$', description: 'National merchant ID of any outlet.' }),
});
export type ByNmidParams = Static<typeof ByNmidParams>;

export const ByNmidQuery = Type.Object(IncludeQuery, { additionalProperties: false });

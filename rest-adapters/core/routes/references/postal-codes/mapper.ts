import type { ReferencePostalCodesQuery } from '@rest-adapters/generated/operations';
import type { PostalCodesResponse } from './schema';

export function toPostalCodesResponse(data: ReferencePostalCodesQuery): PostalCodesResponse {
  return { items: data.postalCodes.map((p) => ({ id: p.id, code: p.code, name: p.name, label: p.label })) };
}

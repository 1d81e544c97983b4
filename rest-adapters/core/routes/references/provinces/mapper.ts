import type { ReferenceProvincesQuery } from '@rest-adapters/generated/operations';
import type { ProvincesResponse } from './schema';

export function toProvincesResponse(data: ReferenceProvincesQuery): ProvincesResponse {
  return { items: data.provinces.map((p) => ({ id: p.id, code: p.code, name: p.name })) };
}

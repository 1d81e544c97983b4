import type { ReferenceDistrictsQuery } from '@rest-adapters/generated/operations';
import type { DistrictsResponse } from './schema';

export function toDistrictsResponse(data: ReferenceDistrictsQuery): DistrictsResponse {
  return { items: data.districts.map((p) => ({ id: p.id, code: p.code, name: p.name })) };
}

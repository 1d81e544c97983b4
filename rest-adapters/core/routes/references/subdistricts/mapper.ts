import type { ReferenceSubdistrictsQuery } from '@rest-adapters/generated/operations';
import type { SubdistrictsResponse } from './schema';

export function toSubdistrictsResponse(data: ReferenceSubdistrictsQuery): SubdistrictsResponse {
  return { items: data.subdistricts.map((p) => ({ id: p.id, code: p.code, name: p.name, type: p.type, lat: p.lat, lng: p.lng })) };
}

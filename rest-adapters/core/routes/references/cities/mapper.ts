import type { ReferenceCitiesQuery } from '@rest-adapters/generated/operations';
import type { CitiesResponse } from './schema';

export function toCitiesResponse(data: ReferenceCitiesQuery): CitiesResponse {
  return { items: data.cities.map((p) => ({ id: p.id, code: p.code, name: p.name, type: p.type })) };
}

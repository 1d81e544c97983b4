import type { CitiesResponse } from './schema';

export interface CitiesData {
  cities: { id: number; code: string; name: string; type: string }[];
}

export function toCitiesResponse(data: CitiesData): CitiesResponse {
  return { items: data.cities.map((p) => ({ id: p.id, code: p.code, name: p.name, type: p.type })) };
}

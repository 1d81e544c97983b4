import type { DistrictsResponse } from './schema';

export interface DistrictsData {
  districts: { id: number; code: string; name: string }[];
}

export function toDistrictsResponse(data: DistrictsData): DistrictsResponse {
  return { items: data.districts.map((p) => ({ id: p.id, code: p.code, name: p.name })) };
}

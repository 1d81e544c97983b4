import type { ProvincesResponse } from './schema';

export interface ProvincesData {
  provinces: { id: number; code: string; name: string }[];
}

export function toProvincesResponse(data: ProvincesData): ProvincesResponse {
  return { items: data.provinces.map((p) => ({ id: p.id, code: p.code, name: p.name })) };
}

import type { SubdistrictsResponse } from './schema';

export interface SubdistrictsData {
  subdistricts: { id: number; code: string; name: string; type: string; lat: number | null; lng: number | null }[];
}

export function toSubdistrictsResponse(data: SubdistrictsData): SubdistrictsResponse {
  return { items: data.subdistricts.map((p) => ({ id: p.id, code: p.code, name: p.name, type: p.type, lat: p.lat, lng: p.lng })) };
}

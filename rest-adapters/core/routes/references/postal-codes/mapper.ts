import type { PostalCodesResponse } from './schema';

export interface PostalCodesData {
  postalCodes: { id: number; code: string; name: string; label: string }[];
}

export function toPostalCodesResponse(data: PostalCodesData): PostalCodesResponse {
  return { items: data.postalCodes.map((p) => ({ id: p.id, code: p.code, name: p.name, label: p.label })) };
}

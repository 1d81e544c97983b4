import { type MerchantData, toPspMerchant, toPspOutlet } from '../psp-merchant.mapper';
import type { ListQuery, ListResponse } from './schema';

export interface PspMerchantListData {
  bankMerchants: { items: MerchantData[]; nextCursor: string | null; hasMore: boolean };
}

export function toListResponse({ bankMerchants: page }: PspMerchantListData, query: ListQuery): ListResponse {
  const items = page.items.map((m) =>
    query.include_outlets ? { ...toPspMerchant(m), outlets: (m.outlets ?? []).map(toPspOutlet) } : toPspMerchant(m),
  );
  return {
    items,
    pagination: { next_cursor: page.nextCursor, has_more: page.hasMore },
    meta: { returned_count: items.length, active_only: true },
  };
}

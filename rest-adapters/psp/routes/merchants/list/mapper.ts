import type { PspMerchantListQuery } from '@rest-adapters/generated/operations';
import { toPspMerchant, toPspOutlet } from '../psp-merchant.mapper';
import type { ListQuery, ListResponse } from './schema';

export function toListResponse({ bankMerchants: page }: PspMerchantListQuery, query: ListQuery): ListResponse {
  const items = page.items.map((m) =>
    query.include_outlets ? { ...toPspMerchant(m), outlets: (m.outlets ?? []).map(toPspOutlet) } : toPspMerchant(m),
  );
  return {
    items,
    pagination: { next_cursor: page.nextCursor, has_more: page.hasMore },
    meta: { returned_count: items.length, active_only: true },
  };
}

import type { ReferenceBusinessTypesQuery } from '@rest-adapters/generated/operations';
import type { BusinessTypesResponse } from './schema';

export function toBusinessTypesResponse(data: ReferenceBusinessTypesQuery): BusinessTypesResponse {
  return {
    items: data.businessTypes.map((p) => ({
      id: p.id,
      code: p.code,
      name: p.name,
      category_id: p.category.id,
      category_code: p.category.code,
      category_name: p.category.name,
      benchmark_transactions: p.benchmarkTransactions,
      benchmark_ticket_size: p.benchmarkTicketSize,
      base_operational_cost_rate: p.baseOperationalCostRate,
    })),
  };
}

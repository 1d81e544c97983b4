import { errorResponses } from '@lib/rest/error-body';
import { IdParams } from '@rest-adapters/core/routes/poslite/catalog/outlets/pos-outlet';
import { posRoutes } from '@rest-adapters/core/routes/poslite/pos-route';
import { PosSalesOrderDocument } from '@rest-adapters/generated/operations';
import { SalesOrderDetail, toDetail } from '../pos-sales-order';
import { DEMO_SALES_ORDER } from '@rest-adapters/core/examples';

export default posRoutes({
  method: 'GET',
  path: '/sales/orders/:id',
  summary: 'A sales order with items and payments (404 not_found otherwise)',
  schema: { params: IdParams, response: { 200: SalesOrderDetail, ...errorResponses(400, 401, 403, 404, 429) } },
  operationId: 'PosSalesOrder',
  examples: { params: { id: DEMO_SALES_ORDER.id }, responses: { 200: DEMO_SALES_ORDER } },
  run: async ({ params }, { execute }) => {
    const data = await execute(PosSalesOrderDocument, { id: params.id });
    return toDetail(data.posSalesOrder);
  },
});

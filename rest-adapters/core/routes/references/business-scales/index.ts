import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { ReferenceBusinessScalesDocument } from '@rest-adapters/generated/operations';
import { toBusinessScalesResponse } from './mapper';
import { BusinessScalesResponse } from './schema';

export default defineRoute({
  method: 'GET',
  url: '/references/business-scales',
  summary: 'List the business scales (PP 7/2021)',
  tags: ['core: reference data'],
  schema: { response: { 200: BusinessScalesResponse, ...errorResponses() } },
  operationId: 'ReferenceBusinessScales',
  examples: {
    responses: {
      200: {
        items: [
          {
            id: 1,
            code: 'micro',
            name: 'Usaha Mikro',
            modal_usaha_min: 0,
            modal_usaha_max: 1_000_000_000,
            omzet_per_bulan_min: 0,
            omzet_per_bulan_max: 166_666_666,
            jumlah_karyawan_min: 1,
            jumlah_karyawan_max: 4,
            sort_order: 1,
          },
          {
            id: 2,
            code: 'small',
            name: 'Usaha Kecil',
            modal_usaha_min: 1_000_000_001,
            modal_usaha_max: 5_000_000_000,
            omzet_per_bulan_min: 166_666_667,
            omzet_per_bulan_max: 1_250_000_000,
            jumlah_karyawan_min: 5,
            jumlah_karyawan_max: 19,
            sort_order: 2,
          },
        ],
      },
    },
  },
  cache: 'public',
  run: async (_input, { execute }) => {
    return toBusinessScalesResponse(await execute(ReferenceBusinessScalesDocument, {}));
  },
});

import type { ReferenceBusinessScalesQuery } from '@rest-adapters/generated/operations';
import type { BusinessScalesResponse } from './schema';

export function toBusinessScalesResponse(data: ReferenceBusinessScalesQuery): BusinessScalesResponse {
  return {
    items: data.businessScales.map((p) => ({
      id: p.id,
      code: p.code,
      name: p.name,
      modal_usaha_min: p.modalUsahaMin,
      modal_usaha_max: p.modalUsahaMax,
      omzet_per_bulan_min: p.omzetPerBulanMin,
      omzet_per_bulan_max: p.omzetPerBulanMax,
      jumlah_karyawan_min: p.jumlahKaryawanMin,
      jumlah_karyawan_max: p.jumlahKaryawanMax,
      sort_order: p.sortOrder,
    })),
  };
}

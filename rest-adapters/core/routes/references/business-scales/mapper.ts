import type { BusinessScalesResponse } from './schema';

export interface BusinessScalesData {
  businessScales: {
    id: number;
    code: string;
    name: string;
    modalUsahaMin: number;
    modalUsahaMax: number | null;
    omzetPerBulanMin: number;
    omzetPerBulanMax: number | null;
    jumlahKaryawanMin: number;
    jumlahKaryawanMax: number | null;
    sortOrder: number;
  }[];
}

export function toBusinessScalesResponse(data: BusinessScalesData): BusinessScalesResponse {
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

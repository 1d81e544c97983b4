/**
 * Business scales after PP No. 7 Tahun 2021 (criteria of UMKM by capital excluding land and buildings, and
 * annual sales), with the employee bands of Badan Pusat Statistik. Monthly turnover = annual sales / 12,
 * rounded down at the upper bound and up at the lower one, so the bands meet without a gap. All rupiah.
 *
 * | scale  | modal usaha          | annual sales           | monthly turnover                   | employees |
 * | mikro  | ≤ 1 M                | ≤ 2 M                  | ≤ 166,666,666                      | 1–4       |
 * | kecil  | > 1 M – ≤ 5 M        | > 2 M – ≤ 15 M         | 166,666,667 – 1,250,000,000        | 5–19      |
 * | menengah | > 5 M – ≤ 10 M     | > 15 M – ≤ 50 M        | 1,250,000,001 – 4,166,666,666      | 20–99     |
 * | besar  | > 10 M               | > 50 M                 | ≥ 4,166,666,667                    | ≥ 100     |
 */
export interface BusinessScaleSeed {
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
}

const MILIAR = 1_000_000_000;

export const BUSINESS_SCALES: BusinessScaleSeed[] = [
  {
    id: 1,
    code: 'micro',
    name: 'Usaha Mikro',
    modalUsahaMin: 0,
    modalUsahaMax: 1 * MILIAR,
    omzetPerBulanMin: 0,
    omzetPerBulanMax: Math.floor((2 * MILIAR) / 12),
    jumlahKaryawanMin: 1,
    jumlahKaryawanMax: 4,
    sortOrder: 1,
  },
  {
    id: 2,
    code: 'small',
    name: 'Usaha Kecil',
    modalUsahaMin: 1 * MILIAR + 1,
    modalUsahaMax: 5 * MILIAR,
    omzetPerBulanMin: Math.floor((2 * MILIAR) / 12) + 1,
    omzetPerBulanMax: Math.floor((15 * MILIAR) / 12),
    jumlahKaryawanMin: 5,
    jumlahKaryawanMax: 19,
    sortOrder: 2,
  },
  {
    id: 3,
    code: 'medium',
    name: 'Usaha Menengah',
    modalUsahaMin: 5 * MILIAR + 1,
    modalUsahaMax: 10 * MILIAR,
    omzetPerBulanMin: Math.floor((15 * MILIAR) / 12) + 1,
    omzetPerBulanMax: Math.floor((50 * MILIAR) / 12),
    jumlahKaryawanMin: 20,
    jumlahKaryawanMax: 99,
    sortOrder: 3,
  },
  {
    id: 4,
    code: 'large',
    name: 'Usaha Besar',
    modalUsahaMin: 10 * MILIAR + 1,
    modalUsahaMax: null,
    omzetPerBulanMin: Math.floor((50 * MILIAR) / 12) + 1,
    omzetPerBulanMax: null,
    jumlahKaryawanMin: 100,
    jumlahKaryawanMax: null,
    sortOrder: 4,
  },
];

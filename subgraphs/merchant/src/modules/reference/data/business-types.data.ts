/** Curated business-type catalogue (our own list). Benchmarks are monthly and indicative, used for scoring and onboarding defaults. */
export interface BusinessTypeCategorySeed { id: number; code: string; name: string }
export interface BusinessTypeSeed {
  id: number;                      // stable, never reused
  code: string;                    // UPPER_SNAKE, stable, e.g. 'WARUNG_MAKAN'
  name: string;                    // Indonesian display name, e.g. 'Warung Makan'
  categoryCode: string;            // one of BUSINESS_TYPE_CATEGORIES codes
  mcc: string;                     // ISO 18245 merchant category code, 4 digits, e.g. '5812'
  benchmarkTransactions: number;   // typical QRIS transactions per month for a small merchant of this type (integer)
  benchmarkTicketSize: number;     // typical ticket size in whole rupiah (integer)
  baseOperationalCostRate: string; // operating cost as a fraction of revenue, decimal string with 4 decimals, e.g. '0.6500'
  isActive: boolean;
  qrisSupported: boolean;
}

export const BUSINESS_TYPE_CATEGORIES: BusinessTypeCategorySeed[] = [
  { id: 1, code: 'FOOD_BEVERAGE', name: 'Makanan & Minuman' },
  { id: 2, code: 'RETAIL_GROCERY', name: 'Ritel & Kelontong' },
  { id: 3, code: 'FASHION', name: 'Fesyen & Aksesori' },
  { id: 4, code: 'SERVICES', name: 'Jasa' },
  { id: 5, code: 'HEALTH_BEAUTY', name: 'Kesehatan & Kecantikan' },
  { id: 6, code: 'EDUCATION', name: 'Pendidikan' },
  { id: 7, code: 'TRANSPORT_AUTOMOTIVE', name: 'Transportasi & Otomotif' },
  { id: 8, code: 'AGRICULTURE_FISHERY', name: 'Pertanian & Perikanan' },
  { id: 9, code: 'DIGITAL_CREATIVE', name: 'Digital & Kreatif' },
  { id: 10, code: 'OTHER', name: 'Lainnya' },
];

export const BUSINESS_TYPES: BusinessTypeSeed[] = [
  // Makanan & Minuman
  { id: 1, code: 'WARUNG_MAKAN', name: 'Warung Makan', categoryCode: 'FOOD_BEVERAGE', mcc: '5812', benchmarkTransactions: 900, benchmarkTicketSize: 25000, baseOperationalCostRate: '0.6500', isActive: true, qrisSupported: true },
  { id: 2, code: 'KEDAI_KOPI', name: 'Kedai Kopi', categoryCode: 'FOOD_BEVERAGE', mcc: '5814', benchmarkTransactions: 700, benchmarkTicketSize: 28000, baseOperationalCostRate: '0.6000', isActive: true, qrisSupported: true },
  { id: 3, code: 'RUMAH_MAKAN', name: 'Rumah Makan', categoryCode: 'FOOD_BEVERAGE', mcc: '5812', benchmarkTransactions: 800, benchmarkTicketSize: 35000, baseOperationalCostRate: '0.6500', isActive: true, qrisSupported: true },
  { id: 4, code: 'PEDAGANG_KAKI_LIMA', name: 'Pedagang Kaki Lima', categoryCode: 'FOOD_BEVERAGE', mcc: '5814', benchmarkTransactions: 1000, benchmarkTicketSize: 15000, baseOperationalCostRate: '0.6000', isActive: true, qrisSupported: true },
  { id: 5, code: 'KEDAI_MINUMAN', name: 'Kedai Minuman', categoryCode: 'FOOD_BEVERAGE', mcc: '5814', benchmarkTransactions: 1200, benchmarkTicketSize: 12000, baseOperationalCostRate: '0.5500', isActive: true, qrisSupported: true },
  { id: 6, code: 'KATERING', name: 'Katering', categoryCode: 'FOOD_BEVERAGE', mcc: '5811', benchmarkTransactions: 60, benchmarkTicketSize: 350000, baseOperationalCostRate: '0.7000', isActive: true, qrisSupported: true },
  { id: 7, code: 'TOKO_KUE_ROTI', name: 'Toko Kue & Roti', categoryCode: 'FOOD_BEVERAGE', mcc: '5462', benchmarkTransactions: 500, benchmarkTicketSize: 30000, baseOperationalCostRate: '0.6000', isActive: true, qrisSupported: true },
  { id: 8, code: 'WARUNG_NASI', name: 'Warung Nasi (digabung ke Warung Makan)', categoryCode: 'FOOD_BEVERAGE', mcc: '5812', benchmarkTransactions: 900, benchmarkTicketSize: 25000, baseOperationalCostRate: '0.6500', isActive: false, qrisSupported: true },

  // Ritel & Kelontong
  { id: 9, code: 'WARUNG_KELONTONG', name: 'Warung Kelontong', categoryCode: 'RETAIL_GROCERY', mcc: '5411', benchmarkTransactions: 700, benchmarkTicketSize: 18000, baseOperationalCostRate: '0.8500', isActive: true, qrisSupported: true },
  { id: 10, code: 'TOKO_SEMBAKO', name: 'Toko Sembako', categoryCode: 'RETAIL_GROCERY', mcc: '5411', benchmarkTransactions: 600, benchmarkTicketSize: 60000, baseOperationalCostRate: '0.8700', isActive: true, qrisSupported: true },
  { id: 11, code: 'MINIMARKET', name: 'Minimarket', categoryCode: 'RETAIL_GROCERY', mcc: '5411', benchmarkTransactions: 2500, benchmarkTicketSize: 45000, baseOperationalCostRate: '0.8500', isActive: true, qrisSupported: true },
  { id: 12, code: 'FOTOKOPI_ATK', name: 'Fotokopi & ATK', categoryCode: 'RETAIL_GROCERY', mcc: '5943', benchmarkTransactions: 500, benchmarkTicketSize: 15000, baseOperationalCostRate: '0.6500', isActive: true, qrisSupported: true },
  { id: 13, code: 'TOKO_BANGUNAN', name: 'Toko Bangunan', categoryCode: 'RETAIL_GROCERY', mcc: '5211', benchmarkTransactions: 200, benchmarkTicketSize: 250000, baseOperationalCostRate: '0.8500', isActive: true, qrisSupported: true },
  { id: 14, code: 'TOKO_ELEKTRONIK', name: 'Toko Elektronik', categoryCode: 'RETAIL_GROCERY', mcc: '5732', benchmarkTransactions: 120, benchmarkTicketSize: 300000, baseOperationalCostRate: '0.8500', isActive: true, qrisSupported: true },

  // Fesyen & Aksesori
  { id: 15, code: 'TOKO_PAKAIAN', name: 'Toko Pakaian', categoryCode: 'FASHION', mcc: '5651', benchmarkTransactions: 250, benchmarkTicketSize: 120000, baseOperationalCostRate: '0.7500', isActive: true, qrisSupported: true },
  { id: 16, code: 'BUTIK', name: 'Butik', categoryCode: 'FASHION', mcc: '5621', benchmarkTransactions: 120, benchmarkTicketSize: 250000, baseOperationalCostRate: '0.7000', isActive: true, qrisSupported: true },
  { id: 17, code: 'TOKO_SEPATU', name: 'Toko Sepatu & Sandal', categoryCode: 'FASHION', mcc: '5661', benchmarkTransactions: 120, benchmarkTicketSize: 180000, baseOperationalCostRate: '0.7500', isActive: true, qrisSupported: true },
  { id: 18, code: 'TOKO_KAIN_BATIK', name: 'Toko Kain & Batik', categoryCode: 'FASHION', mcc: '5949', benchmarkTransactions: 100, benchmarkTicketSize: 150000, baseOperationalCostRate: '0.7500', isActive: true, qrisSupported: true },
  { id: 19, code: 'PENJAHIT', name: 'Penjahit', categoryCode: 'FASHION', mcc: '5697', benchmarkTransactions: 80, benchmarkTicketSize: 100000, baseOperationalCostRate: '0.4500', isActive: true, qrisSupported: true },

  // Jasa
  { id: 20, code: 'LAUNDRY_KILOAN', name: 'Laundry Kiloan', categoryCode: 'SERVICES', mcc: '7211', benchmarkTransactions: 250, benchmarkTicketSize: 40000, baseOperationalCostRate: '0.6000', isActive: true, qrisSupported: true },
  { id: 21, code: 'PANGKAS_RAMBUT', name: 'Pangkas Rambut', categoryCode: 'SERVICES', mcc: '7230', benchmarkTransactions: 400, benchmarkTicketSize: 35000, baseOperationalCostRate: '0.5000', isActive: true, qrisSupported: true },
  { id: 22, code: 'SERVIS_ELEKTRONIK', name: 'Servis Elektronik & HP', categoryCode: 'SERVICES', mcc: '7629', benchmarkTransactions: 100, benchmarkTicketSize: 150000, baseOperationalCostRate: '0.5500', isActive: true, qrisSupported: true },

  // Kesehatan & Kecantikan
  { id: 23, code: 'APOTEK', name: 'Apotek', categoryCode: 'HEALTH_BEAUTY', mcc: '5912', benchmarkTransactions: 800, benchmarkTicketSize: 75000, baseOperationalCostRate: '0.8000', isActive: true, qrisSupported: true },
  { id: 24, code: 'TOKO_OBAT', name: 'Toko Obat', categoryCode: 'HEALTH_BEAUTY', mcc: '5912', benchmarkTransactions: 500, benchmarkTicketSize: 40000, baseOperationalCostRate: '0.8000', isActive: true, qrisSupported: true },
  { id: 25, code: 'SALON_KECANTIKAN', name: 'Salon Kecantikan', categoryCode: 'HEALTH_BEAUTY', mcc: '7230', benchmarkTransactions: 250, benchmarkTicketSize: 80000, baseOperationalCostRate: '0.5500', isActive: true, qrisSupported: true },
  { id: 26, code: 'TOKO_KOSMETIK', name: 'Toko Kosmetik', categoryCode: 'HEALTH_BEAUTY', mcc: '5977', benchmarkTransactions: 300, benchmarkTicketSize: 80000, baseOperationalCostRate: '0.7500', isActive: true, qrisSupported: true },
  { id: 27, code: 'PRAKTIK_DOKTER', name: 'Praktik Dokter & Klinik', categoryCode: 'HEALTH_BEAUTY', mcc: '8011', benchmarkTransactions: 300, benchmarkTicketSize: 150000, baseOperationalCostRate: '0.6000', isActive: true, qrisSupported: true },

  // Pendidikan
  { id: 28, code: 'KURSUS_BIMBEL', name: 'Kursus & Bimbingan Belajar', categoryCode: 'EDUCATION', mcc: '8299', benchmarkTransactions: 50, benchmarkTicketSize: 500000, baseOperationalCostRate: '0.5500', isActive: true, qrisSupported: true },
  { id: 29, code: 'PAUD_PENITIPAN_ANAK', name: 'PAUD & Penitipan Anak', categoryCode: 'EDUCATION', mcc: '8351', benchmarkTransactions: 40, benchmarkTicketSize: 400000, baseOperationalCostRate: '0.6500', isActive: true, qrisSupported: true },
  { id: 30, code: 'TOKO_BUKU', name: 'Toko Buku', categoryCode: 'EDUCATION', mcc: '5942', benchmarkTransactions: 200, benchmarkTicketSize: 75000, baseOperationalCostRate: '0.8000', isActive: true, qrisSupported: true },

  // Transportasi & Otomotif
  { id: 31, code: 'BENGKEL_MOTOR', name: 'Bengkel Motor', categoryCode: 'TRANSPORT_AUTOMOTIVE', mcc: '7538', benchmarkTransactions: 200, benchmarkTicketSize: 120000, baseOperationalCostRate: '0.6500', isActive: true, qrisSupported: true },
  { id: 32, code: 'BENGKEL_MOBIL', name: 'Bengkel Mobil', categoryCode: 'TRANSPORT_AUTOMOTIVE', mcc: '7538', benchmarkTransactions: 80, benchmarkTicketSize: 450000, baseOperationalCostRate: '0.7000', isActive: true, qrisSupported: true },
  { id: 33, code: 'CUCI_KENDARAAN', name: 'Cuci Mobil & Motor', categoryCode: 'TRANSPORT_AUTOMOTIVE', mcc: '7542', benchmarkTransactions: 600, benchmarkTicketSize: 30000, baseOperationalCostRate: '0.5000', isActive: true, qrisSupported: true },
  { id: 34, code: 'PARKIR', name: 'Parkir', categoryCode: 'TRANSPORT_AUTOMOTIVE', mcc: '7523', benchmarkTransactions: 3000, benchmarkTicketSize: 5000, baseOperationalCostRate: '0.3000', isActive: true, qrisSupported: true },
  { id: 35, code: 'AGEN_EKSPEDISI', name: 'Agen Ekspedisi & Pengiriman', categoryCode: 'TRANSPORT_AUTOMOTIVE', mcc: '4215', benchmarkTransactions: 300, benchmarkTicketSize: 25000, baseOperationalCostRate: '0.8000', isActive: true, qrisSupported: true },

  // Pertanian & Perikanan
  { id: 36, code: 'PENJUAL_BUAH_SAYUR', name: 'Penjual Buah & Sayur', categoryCode: 'AGRICULTURE_FISHERY', mcc: '5499', benchmarkTransactions: 500, benchmarkTicketSize: 30000, baseOperationalCostRate: '0.7500', isActive: true, qrisSupported: true },
  { id: 37, code: 'PENJUAL_IKAN_DAGING', name: 'Penjual Ikan, Daging & Ayam', categoryCode: 'AGRICULTURE_FISHERY', mcc: '5422', benchmarkTransactions: 400, benchmarkTicketSize: 50000, baseOperationalCostRate: '0.8000', isActive: true, qrisSupported: true },
  { id: 38, code: 'TOKO_SAPROTAN', name: 'Toko Pertanian (Pupuk & Bibit)', categoryCode: 'AGRICULTURE_FISHERY', mcc: '5261', benchmarkTransactions: 150, benchmarkTicketSize: 150000, baseOperationalCostRate: '0.8500', isActive: true, qrisSupported: true },

  // Digital & Kreatif
  { id: 39, code: 'KONTER_PULSA', name: 'Toko Pulsa & Paket Data', categoryCode: 'DIGITAL_CREATIVE', mcc: '4814', benchmarkTransactions: 1000, benchmarkTicketSize: 25000, baseOperationalCostRate: '0.9200', isActive: true, qrisSupported: true },
  { id: 40, code: 'TOKO_PULSA', name: 'Toko Pulsa (digabung ke Toko Pulsa & Paket Data)', categoryCode: 'DIGITAL_CREATIVE', mcc: '4814', benchmarkTransactions: 1000, benchmarkTicketSize: 25000, baseOperationalCostRate: '0.9200', isActive: false, qrisSupported: true },
  { id: 41, code: 'PERCETAKAN_SABLON', name: 'Percetakan & Sablon', categoryCode: 'DIGITAL_CREATIVE', mcc: '2741', benchmarkTransactions: 80, benchmarkTicketSize: 250000, baseOperationalCostRate: '0.6500', isActive: true, qrisSupported: true },
  { id: 42, code: 'VOUCHER_GAME', name: 'Voucher Game & Produk Digital', categoryCode: 'DIGITAL_CREATIVE', mcc: '5816', benchmarkTransactions: 500, benchmarkTicketSize: 50000, baseOperationalCostRate: '0.9000', isActive: true, qrisSupported: true },

  // Lainnya
  { id: 43, code: 'PENGINAPAN', name: 'Penginapan & Homestay', categoryCode: 'OTHER', mcc: '7011', benchmarkTransactions: 60, benchmarkTicketSize: 300000, baseOperationalCostRate: '0.5500', isActive: true, qrisSupported: true },
  { id: 44, code: 'PEDAGANG_VALUTA_ASING', name: 'Pedagang Valuta Asing', categoryCode: 'OTHER', mcc: '6051', benchmarkTransactions: 100, benchmarkTicketSize: 2000000, baseOperationalCostRate: '0.9500', isActive: true, qrisSupported: false },
  { id: 45, code: 'USAHA_LAINNYA', name: 'Usaha Lainnya', categoryCode: 'OTHER', mcc: '5999', benchmarkTransactions: 300, benchmarkTicketSize: 50000, baseOperationalCostRate: '0.7000', isActive: true, qrisSupported: true },
];

/**
 * Curated starting categories per business-type category (merchant reference data, `BusinessType.category.code`),
 * offered by GET /poslite/catalog/categories/defaults. Names are Indonesian, icons are Material Symbols names.
 * A business type whose category has no list (or an unknown name) gets OTHER's list.
 */
export const DEFAULT_CATEGORIES: Record<string, [name: string, icon: string][]> = {
  FOOD_BEVERAGE: [
    ['Makanan', 'restaurant'],
    ['Minuman', 'local_drink'],
    ['Kopi', 'coffee'],
    ['Camilan', 'cookie'],
    ['Paket Hemat', 'lunch_dining'],
  ],
  RETAIL_GROCERY: [
    ['Sembako', 'grocery'],
    ['Minuman', 'local_drink'],
    ['Makanan Ringan', 'cookie'],
    ['Kebutuhan Rumah', 'home'],
    ['Perawatan Diri', 'spa'],
  ],
  FASHION: [
    ['Pakaian Pria', 'man'],
    ['Pakaian Wanita', 'woman'],
    ['Anak', 'child_care'],
    ['Sepatu', 'steps'],
    ['Aksesori', 'diamond'],
  ],
  SERVICES: [
    ['Layanan', 'handyman'],
    ['Paket', 'inventory_2'],
    ['Tambahan', 'add_circle'],
  ],
  HEALTH_BEAUTY: [
    ['Perawatan', 'spa'],
    ['Kosmetik', 'face'],
    ['Obat & Vitamin', 'medication'],
    ['Alat Kesehatan', 'medical_services'],
  ],
  EDUCATION: [
    ['Biaya Kursus', 'school'],
    ['Buku', 'menu_book'],
    ['Alat Tulis', 'edit'],
  ],
  TRANSPORT_AUTOMOTIVE: [
    ['Servis', 'build'],
    ['Suku Cadang', 'settings'],
    ['Oli & Cairan', 'oil_barrel'],
    ['Aksesori', 'directions_car'],
  ],
  AGRICULTURE_FISHERY: [
    ['Hasil Panen', 'agriculture'],
    ['Ikan & Hasil Laut', 'set_meal'],
    ['Pupuk & Bibit', 'eco'],
    ['Peralatan', 'construction'],
  ],
  DIGITAL_CREATIVE: [
    ['Produk Digital', 'cloud_download'],
    ['Jasa Desain', 'palette'],
    ['Cetak', 'print'],
  ],
  OTHER: [
    ['Produk', 'inventory_2'],
    ['Layanan', 'handyman'],
    ['Lainnya', 'category'],
  ],
};

export interface DefaultCategory {
  name: string;
  iconName: string;
  sortOrder: number;
}

export function defaultCategoriesOf(categoryCode: string | null): DefaultCategory[] {
  const list = (categoryCode && DEFAULT_CATEGORIES[categoryCode]) || DEFAULT_CATEGORIES.OTHER;
  return list.map(([name, iconName], i) => ({ name, iconName, sortOrder: i + 1 }));
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { BusinessScale, BusinessType } from './business.entity';
import { City, District, PostalCode, Province, Subdistrict } from './region.entity';
import type {
  BusinessScaleType,
  BusinessTypeType,
  CityType,
  DistrictType,
  PostalCodeType,
  ProvinceType,
  ReferenceDataStatusType,
  SubdistrictType,
} from './reference.type';

/** Read side of reference data. Lists are ordered by name (regions) or by their defined order. */
export class ReferenceService {
  constructor(private readonly em: EntityManager) {}

  async provinces(): Promise<ProvinceType[]> {
    return this.em.find(Province, {}, { orderBy: { name: 'asc' } });
  }

  async cities(provinceId: number): Promise<CityType[]> {
    return this.em.find(City, { provinceId }, { orderBy: { name: 'asc' } });
  }

  async districts(cityId: number): Promise<DistrictType[]> {
    return this.em.find(District, { cityId }, { orderBy: { name: 'asc' } });
  }

  async subdistricts(districtId: number): Promise<SubdistrictType[]> {
    const rows = await this.em.find(Subdistrict, { districtId }, { orderBy: { name: 'asc' } });
    return rows.map((row) => ({ ...row, lat: row.lat ?? null, lng: row.lng ?? null }));
  }

  async postalCodes(subdistrictId: number): Promise<PostalCodeType[]> {
    const rows = await this.em.find(PostalCode, { subdistrictId }, { orderBy: { code: 'asc' } });
    return rows.map((row) => ({ ...row, label: `${row.code} - ${row.name}` }));
  }

  /** Only types that are active and accept QRIS. */
  async businessTypes(): Promise<BusinessTypeType[]> {
    const rows = await this.em.find(
      BusinessType,
      { isActive: true, qrisSupported: true },
      { populate: ['category'], orderBy: { category: { id: 'asc' }, name: 'asc' } },
    );
    return rows.map((row) => ({
      id: row.id,
      code: row.code,
      name: row.name,
      mcc: row.mcc,
      category: { id: row.category.id, code: row.category.code, name: row.category.name },
      benchmarkTransactions: row.benchmarkTransactions,
      benchmarkTicketSize: row.benchmarkTicketSize,
      baseOperationalCostRate: Number(row.baseOperationalCostRate),
    }));
  }

  async businessScales(): Promise<BusinessScaleType[]> {
    return this.em.find(BusinessScale, {}, { orderBy: { sortOrder: 'asc' } });
  }

  async status(): Promise<ReferenceDataStatusType> {
    const [row] = await this.em.getConnection().execute<Record<keyof Omit<ReferenceDataStatusType, 'loaded'>, string>[]>(`
      select (select count(*) from merchant.provinces) as provinces,
             (select count(*) from merchant.cities) as cities,
             (select count(*) from merchant.districts) as districts,
             (select count(*) from merchant.subdistricts) as subdistricts,
             (select count(*) from merchant.postal_codes) as "postalCodes",
             (select count(*) from merchant.business_types where is_active and qris_supported) as "businessTypes",
             (select count(*) from merchant.business_scales) as "businessScales"`);
    const counts = Object.fromEntries(Object.entries(row).map(([key, value]) => [key, Number(value)])) as Omit<
      ReferenceDataStatusType,
      'loaded'
    >;
    const loaded =
      counts.provinces > 0 && counts.cities > 0 && counts.subdistricts > 0 && counts.businessTypes > 0 && counts.businessScales > 0;
    return { loaded, ...counts };
  }
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { ReferenceRepository } from './reference.repository';
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
  private readonly repo: ReferenceRepository;

  constructor(em: EntityManager) {
    this.repo = new ReferenceRepository(em);
  }

  async provinces(): Promise<ProvinceType[]> {
    return this.repo.provinces();
  }

  async cities(provinceId: number): Promise<CityType[]> {
    return this.repo.citiesOf(provinceId);
  }

  async districts(cityId: number): Promise<DistrictType[]> {
    return this.repo.districtsOf(cityId);
  }

  async subdistricts(districtId: number): Promise<SubdistrictType[]> {
    const rows = await this.repo.subdistrictsOf(districtId);
    return rows.map((row) => ({ ...row, lat: row.lat ?? null, lng: row.lng ?? null }));
  }

  async postalCodes(subdistrictId: number): Promise<PostalCodeType[]> {
    const rows = await this.repo.postalCodesOf(subdistrictId);
    return rows.map((row) => ({ ...row, label: `${row.code} - ${row.name}` }));
  }

  /** Only types that are active and accept QRIS. */
  async businessTypes(): Promise<BusinessTypeType[]> {
    const rows = await this.repo.qrisBusinessTypes();
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
    return this.repo.businessScales();
  }

  async status(): Promise<ReferenceDataStatusType> {
    const row = await this.repo.counts();
    const counts = Object.fromEntries(Object.entries(row).map(([key, value]) => [key, Number(value)])) as Omit<
      ReferenceDataStatusType,
      'loaded'
    >;
    const loaded =
      counts.provinces > 0 && counts.cities > 0 && counts.subdistricts > 0 && counts.businessTypes > 0 && counts.businessScales > 0;
    return { loaded, ...counts };
  }
}

import { Repository } from '@lib/db/repository';
import { BusinessScale, BusinessType } from './business.entity';
import { City, District, PostalCode, Province, Subdistrict } from './region.entity';

/** Reference data (regions, business types and scales), read only; the importer loads it. */
export class ReferenceRepository extends Repository {
  provinces(): Promise<Province[]> {
    return this.em.find(Province, {}, { orderBy: { name: 'asc' } });
  }

  citiesOf(provinceId: number): Promise<City[]> {
    return this.em.find(City, { provinceId }, { orderBy: { name: 'asc' } });
  }

  districtsOf(cityId: number): Promise<District[]> {
    return this.em.find(District, { cityId }, { orderBy: { name: 'asc' } });
  }

  subdistrictsOf(districtId: number): Promise<Subdistrict[]> {
    return this.em.find(Subdistrict, { districtId }, { orderBy: { name: 'asc' } });
  }

  postalCodesOf(subdistrictId: number): Promise<PostalCode[]> {
    return this.em.find(PostalCode, { subdistrictId }, { orderBy: { code: 'asc' } });
  }

  /** Business types that are active and accept QRIS, category loaded, by category then name. */
  qrisBusinessTypes(): Promise<BusinessType[]> {
    return this.em.find(
      BusinessType,
      { isActive: true, qrisSupported: true },
      { populate: ['category'], orderBy: { category: { id: 'asc' }, name: 'asc' } },
    );
  }

  /** The business type with this id if it is active and accepts QRIS. */
  qrisBusinessType(id: number): Promise<BusinessType | null> {
    return this.em.findOne(BusinessType, { id, isActive: true, qrisSupported: true });
  }

  /** Every business scale, in their defined order. */
  businessScales(): Promise<BusinessScale[]> {
    return this.em.find(BusinessScale, {}, { orderBy: { sortOrder: 'asc' } });
  }

  /** Every business scale, in no particular order. */
  allBusinessScales(): Promise<BusinessScale[]> {
    return this.em.find(BusinessScale, {});
  }

  /** Row counts of each reference table (as text). */
  async counts(): Promise<
    Record<'provinces' | 'cities' | 'districts' | 'subdistricts' | 'postalCodes' | 'businessTypes' | 'businessScales', string>
  > {
    const [row] = await this.execute<
      Record<'provinces' | 'cities' | 'districts' | 'subdistricts' | 'postalCodes' | 'businessTypes' | 'businessScales', string>
    >(`
      select (select count(*) from merchant.provinces) as provinces,
             (select count(*) from merchant.cities) as cities,
             (select count(*) from merchant.districts) as districts,
             (select count(*) from merchant.subdistricts) as subdistricts,
             (select count(*) from merchant.postal_codes) as "postalCodes",
             (select count(*) from merchant.business_types where is_active and qris_supported) as "businessTypes",
             (select count(*) from merchant.business_scales) as "businessScales"`);
    return row;
  }
}

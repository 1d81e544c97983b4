import { SafeIntResolver } from 'graphql-scalars';
import { Arg, Authorized, Ctx, Query, Resolver } from 'type-graphql';
import { PUBLIC } from '@lib/federation/build-subgraph-schema';
import type { MerchantContext } from '@subgraphs/merchant/src/context';
import {
  BusinessScaleType,
  BusinessTypeType,
  CityType,
  DistrictType,
  PostalCodeType,
  ProvinceType,
  ReferenceDataStatusType,
  SubdistrictType,
} from './reference.type';

/** Public reference data; every list is complete for its parent (no paging needed at these sizes). */
@Resolver()
export class ReferenceResolver {
  @Authorized(PUBLIC)
  @Query(() => [ProvinceType], { description: "Indonesia's provinces, by name." })
  provinces(@Ctx() ctx: MerchantContext): Promise<ProvinceType[]> {
    return ctx.services.reference.provinces();
  }

  @Authorized(PUBLIC)
  @Query(() => [CityType], { description: 'Regencies and cities of a province.' })
  cities(
    @Arg('provinceId', () => SafeIntResolver, { description: 'Kemendagri code of the province.' }) provinceId: number,
    @Ctx() ctx: MerchantContext,
  ): Promise<CityType[]> {
    return ctx.services.reference.cities(provinceId);
  }

  @Authorized(PUBLIC)
  @Query(() => [DistrictType], { description: 'Districts (kecamatan) of a city.' })
  districts(
    @Arg('cityId', () => SafeIntResolver, { description: 'Kemendagri code of the city.' }) cityId: number,
    @Ctx() ctx: MerchantContext,
  ): Promise<DistrictType[]> {
    return ctx.services.reference.districts(cityId);
  }

  @Authorized(PUBLIC)
  @Query(() => [SubdistrictType], { description: 'Subdistricts (kelurahan/desa) of a district.' })
  subdistricts(
    @Arg('districtId', () => SafeIntResolver, { description: 'Kemendagri code of the district.' }) districtId: number,
    @Ctx() ctx: MerchantContext,
  ): Promise<SubdistrictType[]> {
    return ctx.services.reference.subdistricts(districtId);
  }

  @Authorized(PUBLIC)
  @Query(() => [PostalCodeType], { description: 'Postal codes of a subdistrict.' })
  postalCodes(
    @Arg('subdistrictId', () => SafeIntResolver, { description: 'Kemendagri code of the subdistrict.' }) subdistrictId: number,
    @Ctx() ctx: MerchantContext,
  ): Promise<PostalCodeType[]> {
    return ctx.services.reference.postalCodes(subdistrictId);
  }

  @Authorized(PUBLIC)
  @Query(() => [BusinessTypeType], { description: 'Active business types that accept QRIS.' })
  businessTypes(@Ctx() ctx: MerchantContext): Promise<BusinessTypeType[]> {
    return ctx.services.reference.businessTypes();
  }

  @Authorized(PUBLIC)
  @Query(() => [BusinessScaleType], { description: 'Business scales (micro, small, medium, large) with their turnover bounds.' })
  businessScales(@Ctx() ctx: MerchantContext): Promise<BusinessScaleType[]> {
    return ctx.services.reference.businessScales();
  }

  @Authorized('service', 'internal', 'operator')
  @Query(() => ReferenceDataStatusType, { description: 'Whether the reference data is imported, with row counts.' })
  referenceDataStatus(@Ctx() ctx: MerchantContext): Promise<ReferenceDataStatusType> {
    return ctx.services.reference.status();
  }
}

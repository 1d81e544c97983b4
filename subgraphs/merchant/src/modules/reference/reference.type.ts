import { SafeIntResolver } from 'graphql-scalars';
import { Field, Float, Int, ObjectType } from 'type-graphql';

@ObjectType('Province', { description: 'A province (provinsi).' })
export class ProvinceType {
  @Field(() => SafeIntResolver, { description: 'The Kemendagri code without dots.' })
  id!: number;

  @Field({ description: 'Kemendagri code, e.g. 31.' })
  code!: string;

  @Field({ description: 'Province name.' })
  name!: string;
}

@ObjectType('City', { description: 'A regency or city (kabupaten/kota).' })
export class CityType {
  @Field(() => SafeIntResolver)
  id!: number;

  @Field()
  code!: string;

  @Field({ description: 'The name without the Kota/Kabupaten prefix.' })
  name!: string;

  @Field({ description: 'Kabupaten, Kota, Kabupaten Administrasi or Kota Administrasi.' })
  type!: string;

  @Field(() => SafeIntResolver)
  provinceId!: number;
}

@ObjectType('District', { description: 'A district (kecamatan).' })
export class DistrictType {
  @Field(() => SafeIntResolver)
  id!: number;

  @Field()
  code!: string;

  @Field()
  name!: string;

  @Field(() => SafeIntResolver)
  cityId!: number;
}

@ObjectType('Subdistrict', { description: 'A village (desa or kelurahan).' })
export class SubdistrictType {
  @Field(() => SafeIntResolver)
  id!: number;

  @Field()
  code!: string;

  @Field()
  name!: string;

  @Field({ description: 'Desa, Kelurahan or Desa Adat.' })
  type!: string;

  @Field(() => Float, { nullable: true, description: 'Null when unknown.' })
  lat!: number | null;

  @Field(() => Float, { nullable: true, description: 'Null when unknown.' })
  lng!: number | null;

  @Field(() => SafeIntResolver)
  districtId!: number;
}

@ObjectType('PostalCode', { description: 'A postal code of a subdistrict (Kemendagri region data).' })
export class PostalCodeType {
  @Field(() => SafeIntResolver)
  id!: number;

  @Field({ description: 'Five-digit kode pos.' })
  code!: string;

  @Field({ description: 'The area the code covers.' })
  name!: string;

  @Field({ description: '"<code> - <area name>".' })
  label!: string;

  @Field(() => SafeIntResolver)
  subdistrictId!: number;
}

@ObjectType('BusinessTypeCategory')
export class BusinessTypeCategoryType {
  @Field(() => Int)
  id!: number;

  @Field()
  code!: string;

  @Field()
  name!: string;
}

@ObjectType('BusinessType', { description: 'A business type that can accept QRIS.' })
export class BusinessTypeType {
  @Field(() => Int)
  id!: number;

  @Field()
  code!: string;

  @Field()
  name!: string;

  @Field({ description: 'ISO 18245 merchant category code.' })
  mcc!: string;

  @Field(() => BusinessTypeCategoryType)
  category!: BusinessTypeCategoryType;

  @Field(() => Int, { description: 'Typical QRIS transactions per month.' })
  benchmarkTransactions!: number;

  @Field(() => SafeIntResolver, { description: 'Typical ticket size, rupiah.' })
  benchmarkTicketSize!: number;

  @Field(() => Float, { description: 'Operating cost as a fraction of revenue.' })
  baseOperationalCostRate!: number;
}

@ObjectType('BusinessScale', { description: 'A business scale after PP 7/2021; a null maximum is unbounded.' })
export class BusinessScaleType {
  @Field(() => Int)
  id!: number;

  @Field()
  code!: string;

  @Field()
  name!: string;

  @Field(() => SafeIntResolver)
  modalUsahaMin!: number;

  @Field(() => SafeIntResolver, { nullable: true })
  modalUsahaMax!: number | null;

  @Field(() => SafeIntResolver)
  omzetPerBulanMin!: number;

  @Field(() => SafeIntResolver, { nullable: true })
  omzetPerBulanMax!: number | null;

  @Field(() => Int)
  jumlahKaryawanMin!: number;

  @Field(() => Int, { nullable: true })
  jumlahKaryawanMax!: number | null;

  @Field(() => Int)
  sortOrder!: number;
}

@ObjectType('ReferenceDataStatus', {
  description: 'Row counts of the reference tables; loaded when regions and business data are present.',
})
export class ReferenceDataStatusType {
  @Field()
  loaded!: boolean;

  @Field(() => Int)
  provinces!: number;

  @Field(() => Int)
  cities!: number;

  @Field(() => Int)
  districts!: number;

  @Field(() => Int)
  subdistricts!: number;

  @Field(() => Int)
  postalCodes!: number;

  @Field(() => Int)
  businessTypes!: number;

  @Field(() => Int)
  businessScales!: number;
}

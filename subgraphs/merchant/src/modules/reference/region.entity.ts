import { BigIntType, Entity, PrimaryKey, Property, Unique } from '@mikro-orm/core';

/**
 * Administrative regions (Kemendagri codes, from the `idn-area-data` package). The numeric id is the code
 * without dots (11.01 → 1101), so ids are stable across re-imports and the same in every environment.
 */
@Entity({ tableName: 'provinces' })
export class Province {
  @PrimaryKey({ type: 'integer', autoincrement: false })
  id!: number;

  @Property({ type: 'text', unique: true })
  code!: string;

  @Property({ type: 'text' })
  name!: string;
}

@Entity({ tableName: 'cities' })
export class City {
  @PrimaryKey({ type: 'integer', autoincrement: false })
  id!: number;

  @Property({ type: 'text', unique: true })
  code!: string;

  @Property({ type: 'integer', index: true })
  provinceId!: number;

  /** The name without its Kota/Kabupaten prefix, which is kept in `type`. */
  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text' })
  type!: string;
}

@Entity({ tableName: 'districts' })
export class District {
  @PrimaryKey({ type: 'integer', autoincrement: false })
  id!: number;

  @Property({ type: 'text', unique: true })
  code!: string;

  @Property({ type: 'integer', index: true })
  cityId!: number;

  @Property({ type: 'text' })
  name!: string;
}

/** Villages: `Kelurahan`, `Desa` or `Desa Adat` (first digit of the last code segment: 1, 2, 3). */
@Entity({ tableName: 'subdistricts' })
export class Subdistrict {
  @PrimaryKey({ type: new BigIntType('number'), autoincrement: false })
  id!: number;

  @Property({ type: 'text', unique: true })
  code!: string;

  @Property({ type: 'integer', index: true })
  districtId!: number;

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text' })
  type!: string;

  @Property({ type: 'double', nullable: true })
  lat?: number | null;

  @Property({ type: 'double', nullable: true })
  lng?: number | null;
}

@Entity({ tableName: 'postal_codes' })
@Unique({ properties: ['subdistrictId', 'code'] })
export class PostalCode {
  @PrimaryKey({ type: new BigIntType('number') })
  id!: number;

  @Property({ type: new BigIntType('number'), index: true })
  subdistrictId!: number;

  @Property({ type: 'text' })
  code!: string;

  /** The area the code covers (the village name). */
  @Property({ type: 'text' })
  name!: string;
}

/** One row per imported source, so a re-import of unchanged data is skipped. */
@Entity({ tableName: 'reference_imports' })
export class ReferenceImport {
  @PrimaryKey({ type: 'text' })
  source!: string;

  @Property({ type: 'text' })
  checksum!: string;

  @Property({ type: 'integer' })
  rowCount!: number;

  @Property({ type: 'datetime' })
  importedAt!: Date;
}

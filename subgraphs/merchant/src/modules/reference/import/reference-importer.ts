import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Knex } from '@mikro-orm/postgresql';
import { parse } from 'csv-parse/sync';
import { BUSINESS_SCALES } from '../data/business-scales.data';
import { BUSINESS_TYPE_CATEGORIES, BUSINESS_TYPES } from '../data/business-types.data';
import { idOfCode, splitCityName, splitVillage } from './region-names';

/** The shipped sample of postal codes and coordinates (format: docs/reference-data.md). */
export const SAMPLE_GEO_CSV = path.join(__dirname, '../data/subdistrict-geo.sample.csv');

export interface ImportResult {
  source: string;
  skipped: boolean;
  rows: number;
}

export class ReferenceImportError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `reference import refused:\n  - ${problems.slice(0, 20).join('\n  - ')}${problems.length > 20 ? `\n  … and ${problems.length - 20} more` : ''}`,
    );
  }
}

type Row = Record<string, string>;
const readCsv = (file: string): Row[] => parse(readFileSync(file), { columns: true, skip_empty_lines: true, trim: true });
const checksumOf = (...parts: string[]) => parts.reduce((hash, part) => hash.update(part), createHash('sha256')).digest('hex');

/**
 * Writes reference data into the merchant schema. Every import is idempotent: it upserts by natural id,
 * changes only rows whose content differs, runs in one transaction, and is skipped entirely when the
 * source's checksum equals the last one imported.
 */
export class ReferenceImporter {
  constructor(private readonly knex: Knex) {}

  /** Provinces, regencies/cities, districts and villages from the `idn-area-data` package. */
  async importRegions(dataDir = path.join(path.dirname(require.resolve('idn-area-data/package.json')), 'data')): Promise<ImportResult> {
    const files = ['provinces.csv', 'regencies.csv', 'districts.csv', 'villages.csv'].map((f) => path.join(dataDir, f));
    const checksum = checksumOf(...files.map((f) => readFileSync(f, 'utf8')));
    return this.once('idn-area-data', checksum, async (trx) => {
      const [provinces, regencies, districts, villages] = files.map(readCsv);
      const provinceRows = provinces.map((r) => ({ id: idOfCode(r.code), code: r.code, name: r.name }));
      const cityRows = regencies.map((r) => ({
        id: idOfCode(r.code),
        code: r.code,
        province_id: idOfCode(r.province_code),
        ...splitCityName(r.name),
      }));
      const districtRows = districts.map((r) => ({ id: idOfCode(r.code), code: r.code, city_id: idOfCode(r.regency_code), name: r.name }));
      const villageRows = villages.map((r) => ({
        id: idOfCode(r.code),
        code: r.code,
        district_id: idOfCode(r.district_code),
        ...splitVillage(r.code, r.name),
      }));
      await upsert(trx, 'provinces', 'id int, code text, name text', provinceRows, ['code', 'name']);
      await upsert(trx, 'cities', 'id int, code text, province_id int, name text, type text', cityRows, [
        'code',
        'province_id',
        'name',
        'type',
      ]);
      await upsert(trx, 'districts', 'id int, code text, city_id int, name text', districtRows, ['code', 'city_id', 'name']);
      await upsert(trx, 'subdistricts', 'id bigint, code text, district_id int, name text, type text', villageRows, [
        'code',
        'district_id',
        'name',
        'type',
      ]);
      return provinceRows.length + cityRows.length + districtRows.length + villageRows.length;
    });
  }

  /**
   * Postal codes and village coordinates from a CSV `subdistrict_code,postal_code,lat,lng` (empty = unknown).
   * The whole file is validated first; one bad row refuses the file and nothing changes.
   */
  async importGeoCsv(file = SAMPLE_GEO_CSV): Promise<ImportResult> {
    const content = readFileSync(file, 'utf8');
    const source = `geo-csv:${path.basename(file)}`;
    return this.once(source, checksumOf(content), async (trx) => {
      const rows: Row[] = parse(content, { columns: true, skip_empty_lines: true, trim: true });
      const header = Object.keys(rows[0] ?? {});
      if (rows.length > 0 && ['subdistrict_code', 'postal_code', 'lat', 'lng'].some((column) => !header.includes(column))) {
        throw new ReferenceImportError([`header must be subdistrict_code,postal_code,lat,lng (got ${header.join(',')})`]);
      }
      const codes = rows.map((r) => r.subdistrict_code);
      const known = new Map<string, { id: number; name: string }>(
        (await trx('merchant.subdistricts').select('code', 'id', 'name').whereIn('code', codes)).map((r) => [
          r.code,
          { id: Number(r.id), name: r.name },
        ]),
      );
      const problems: string[] = [];
      const postal: { subdistrict_id: number; code: string; name: string }[] = [];
      const coordinates: { id: number; lat: number; lng: number }[] = [];
      rows.forEach((row, index) => {
        const line = index + 2;
        const village = known.get(row.subdistrict_code);
        if (!village) return void problems.push(`line ${line}: unknown subdistrict_code ${row.subdistrict_code}`);
        if (row.postal_code) {
          if (!/^\d{5}$/.test(row.postal_code)) problems.push(`line ${line}: postal_code must be 5 digits`);
          else postal.push({ subdistrict_id: village.id, code: row.postal_code, name: village.name });
        }
        if (row.lat || row.lng) {
          const lat = Number(row.lat);
          const lng = Number(row.lng);
          if (!row.lat || !row.lng || !(Math.abs(lat) <= 90) || !(Math.abs(lng) <= 180)) {
            problems.push(`line ${line}: lat and lng must both be given, within ±90 and ±180`);
          } else coordinates.push({ id: village.id, lat, lng });
        }
      });
      if (problems.length > 0) throw new ReferenceImportError(problems);
      if (postal.length > 0) {
        await trx.raw(
          `insert into merchant.postal_codes (subdistrict_id, code, name)
           select subdistrict_id, code, name from json_to_recordset(?::json) as x(subdistrict_id bigint, code text, name text)
           on conflict (subdistrict_id, code) do update set name = excluded.name
           where postal_codes.name is distinct from excluded.name`,
          [JSON.stringify(postal)],
        );
      }
      if (coordinates.length > 0) {
        await trx.raw(
          `update merchant.subdistricts s set lat = x.lat, lng = x.lng
             from json_to_recordset(?::json) as x(id bigint, lat double precision, lng double precision)
            where s.id = x.id and (s.lat, s.lng) is distinct from (x.lat, x.lng)`,
          [JSON.stringify(coordinates)],
        );
      }
      return rows.length;
    });
  }

  /** Business type categories, business types and business scales from the curated lists in data/. */
  async importBusinessData(): Promise<ImportResult> {
    const payload = JSON.stringify([BUSINESS_TYPE_CATEGORIES, BUSINESS_TYPES, BUSINESS_SCALES]);
    return this.once('business-data', checksumOf(payload), async (trx) => {
      await upsert(trx, 'business_type_categories', 'id int, code text, name text', BUSINESS_TYPE_CATEGORIES, ['code', 'name']);
      await upsert(
        trx,
        'business_types',
        'id int, code text, name text, category_id int, mcc text, benchmark_transactions int, benchmark_ticket_size bigint, base_operational_cost_rate numeric, is_active boolean, qris_supported boolean',
        BUSINESS_TYPES.map((t) => ({
          id: t.id,
          code: t.code,
          name: t.name,
          category_id: BUSINESS_TYPE_CATEGORIES.find((c) => c.code === t.categoryCode)!.id,
          mcc: t.mcc,
          benchmark_transactions: t.benchmarkTransactions,
          benchmark_ticket_size: t.benchmarkTicketSize,
          base_operational_cost_rate: t.baseOperationalCostRate,
          is_active: t.isActive,
          qris_supported: t.qrisSupported,
        })),
        [
          'code',
          'name',
          'category_id',
          'mcc',
          'benchmark_transactions',
          'benchmark_ticket_size',
          'base_operational_cost_rate',
          'is_active',
          'qris_supported',
        ],
      );
      await upsert(
        trx,
        'business_scales',
        'id int, code text, name text, modal_usaha_min bigint, modal_usaha_max bigint, omzet_per_bulan_min bigint, omzet_per_bulan_max bigint, jumlah_karyawan_min int, jumlah_karyawan_max int, sort_order int',
        BUSINESS_SCALES.map((s) => ({
          id: s.id,
          code: s.code,
          name: s.name,
          modal_usaha_min: s.modalUsahaMin,
          modal_usaha_max: s.modalUsahaMax,
          omzet_per_bulan_min: s.omzetPerBulanMin,
          omzet_per_bulan_max: s.omzetPerBulanMax,
          jumlah_karyawan_min: s.jumlahKaryawanMin,
          jumlah_karyawan_max: s.jumlahKaryawanMax,
          sort_order: s.sortOrder,
        })),
        [
          'code',
          'name',
          'modal_usaha_min',
          'modal_usaha_max',
          'omzet_per_bulan_min',
          'omzet_per_bulan_max',
          'jumlah_karyawan_min',
          'jumlah_karyawan_max',
          'sort_order',
        ],
      );
      return BUSINESS_TYPE_CATEGORIES.length + BUSINESS_TYPES.length + BUSINESS_SCALES.length;
    });
  }

  /** Runs `work` in a transaction unless `source` was last imported with the same checksum. */
  private async once(source: string, checksum: string, work: (trx: Knex.Transaction) => Promise<number>): Promise<ImportResult> {
    return this.knex.transaction(async (trx) => {
      // Serialises concurrent imports of the same source (two `seed:reference` at once).
      await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`reference-import:${source}`]);
      const last = await trx('merchant.reference_imports').where({ source }).first();
      if (last?.checksum === checksum) return { source, skipped: true, rows: last.row_count };
      const rows = await work(trx);
      await trx.raw(
        `insert into merchant.reference_imports (source, checksum, row_count, imported_at) values (?, ?, ?, now())
         on conflict (source) do update set checksum = excluded.checksum, row_count = excluded.row_count, imported_at = excluded.imported_at`,
        [source, checksum, rows],
      );
      return { source, skipped: false, rows };
    });
  }
}

/** Bulk upsert through json_to_recordset: one statement per table, rows rewritten only when they differ. */
async function upsert(trx: Knex.Transaction, table: string, recordType: string, rows: object[], updatable: string[]): Promise<void> {
  const columns = recordType.split(',').map((c) => c.trim().split(' ')[0]);
  const set = updatable.map((c) => `${c} = excluded.${c}`).join(', ');
  const current = updatable.map((c) => `${table}.${c}`).join(', ');
  const next = updatable.map((c) => `excluded.${c}`).join(', ');
  await trx.raw(
    `insert into merchant.${table} (${columns.join(', ')})
     select ${columns.join(', ')} from json_to_recordset(?::json) as x(${recordType})
     on conflict (id) do update set ${set} where (${current}) is distinct from (${next})`,
    [JSON.stringify(rows)],
  );
}

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '@lib/config/config';
import type { Orm } from '@lib/db/orm';
import { openSubgraphOrm } from '@lib/federation/subgraph-definition';
import { type TestDatabase, cloneTemplateDatabase } from '@test/support/test-database';
import { merchantSubgraph } from '@subgraphs/merchant/src/app';
import { ReferenceImportError, ReferenceImporter } from './reference-importer';

describe('ReferenceImporter (real PostgreSQL)', () => {
  let database: TestDatabase;
  let orm: Orm;
  let importer: ReferenceImporter;
  const count = async (table: string, where = 'true') =>
    Number((await orm.em.getKnex().raw(`select count(*) as n from merchant.${table} where ${where}`)).rows[0].n);
  const csv = (content: string) => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'geo-')), 'geo.csv');
    writeFileSync(file, content);
    return file;
  };

  beforeAll(async () => {
    database = await cloneTemplateDatabase();
    orm = await openSubgraphOrm(merchantSubgraph, loadConfig({ DATABASE_URL: database.adminUrl }));
    importer = new ReferenceImporter(orm.em.getKnex());
  });
  afterAll(async () => {
    await orm.close();
    await database.drop();
  });

  it('holds the whole idn-area-data set: 38 provinces, 514 cities, 7,285 districts, 83,762 villages', async () => {
    expect(await count('provinces')).toBe(38);
    expect(await count('cities')).toBe(514);
    expect(await count('districts')).toBe(7285);
    expect(await count('subdistricts')).toBe(83762);
    expect(await count('cities', "name ~ '^(Kota|Kabupaten) '")).toBe(0);
  });

  it('skips an unchanged source and rewrites nothing', async () => {
    expect(await importer.importRegions()).toEqual({ source: 'idn-area-data', skipped: true, rows: 91599 });
    expect(await importer.importBusinessData()).toMatchObject({ skipped: true });
  });

  it('re-imports idempotently when forced (same rows, no duplicates)', async () => {
    await orm.em.getKnex().raw("update merchant.reference_imports set checksum = 'changed' where source = 'idn-area-data'");
    await orm.em.getKnex().raw("update merchant.cities set name = 'Renamed' where id = 3273");
    expect(await importer.importRegions()).toEqual({ source: 'idn-area-data', skipped: false, rows: 91599 });
    expect(await count('subdistricts')).toBe(83762);
    expect(await count('cities', "id = 3273 and name = 'Bandung' and type = 'Kota'")).toBe(1);
  });

  it('refuses a geo CSV with any bad row and changes nothing', async () => {
    const before = await count('postal_codes');
    const file = csv(
      [
        'subdistrict_code,postal_code,lat,lng',
        '31.71.06.1001,10310,-6.19,106.83',
        '99.99.99.9999,12345,,',
        '31.71.06.1002,1032,,',
        '31.71.06.1003,,-91,106.8',
        '31.71.06.1004,,-6.2,',
      ].join('\n'),
    );
    let error: ReferenceImportError | undefined;
    await importer.importGeoCsv(file).catch((e) => (error = e));
    expect(error).toBeInstanceOf(ReferenceImportError);
    expect(error!.problems).toEqual([
      'line 3: unknown subdistrict_code 99.99.99.9999',
      'line 4: postal_code must be 5 digits',
      'line 5: lat and lng must both be given, within ±90 and ±180',
      'line 6: lat and lng must both be given, within ±90 and ±180',
    ]);
    expect(await count('postal_codes')).toBe(before);
    expect(await count('subdistricts', "code = '31.71.06.1001' and lat = -6.19")).toBe(0);
  });

  it('imports a valid geo CSV once: postal codes upserted, coordinates set, empty values left unknown', async () => {
    const file = csv('subdistrict_code,postal_code,lat,lng\n11.01.01.2001,23773,3.1,97.4\n11.01.01.2002,23773,,\n');
    expect(await importer.importGeoCsv(file)).toMatchObject({ skipped: false, rows: 2 });
    expect(await importer.importGeoCsv(file)).toMatchObject({ skipped: true });
    expect(await count('postal_codes', "code = '23773'")).toBe(2);
    expect(await count('subdistricts', "code = '11.01.01.2001' and lat = 3.1 and lng = 97.4")).toBe(1);
    expect(await count('subdistricts', "code = '11.01.01.2002' and lat is null")).toBe(1);
  });
});

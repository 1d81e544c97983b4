import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../lib/config/config';
import { ensureRolesAndSchemas } from '../lib/db/bootstrap';
import { type Orm, migrate } from '../lib/db/orm';
import { type SubgraphDefinition, openSubgraphOrm } from '../lib/federation/subgraph-definition';
import { SUBGRAPHS } from '../subgraphs';
import { LegalDocumentService } from '../subgraphs/merchant/src/modules/legal-document/legal-document.service';
import { type ImportResult, ReferenceImporter } from '../subgraphs/merchant/src/modules/reference/import/reference-importer';

/** Opens a subgraph's ORM as its own role, runs `work`, closes it. */
async function withSubgraph<T>(definition: SubgraphDefinition, config: Config, adminUrl: string, work: (orm: Orm) => Promise<T>): Promise<T> {
  const orm = await openSubgraphOrm(definition, config, adminUrl);
  try {
    return await work(orm);
  } finally {
    await orm.close();
  }
}

/** Roles and schemas (as admin), then each subgraph's pending migrations (as that subgraph's role). */
export async function migrateAll(config: Config, adminUrl: string): Promise<Record<string, string[]>> {
  await ensureRolesAndSchemas(config, adminUrl);
  const applied: Record<string, string[]> = {};
  for (const definition of SUBGRAPHS) {
    applied[definition.name] = await withSubgraph(definition, config, adminUrl, migrate);
  }
  return applied;
}

export interface ReferenceSeedResult {
  imports: ImportResult[];
  legalDocuments: { inserted: number; updated: number };
}

/** Regions, postal codes and coordinates (the shipped sample or `geoCsv`), business data, legal documents. */
export async function seedReference(config: Config, adminUrl: string, geoCsv?: string): Promise<ReferenceSeedResult> {
  const merchant = SUBGRAPHS.find((s) => s.name === 'merchant')!;
  return withSubgraph(merchant, config, adminUrl, async (orm) => {
    const importer = new ReferenceImporter(orm.em.getKnex());
    const imports = [await importer.importRegions(), await importer.importGeoCsv(geoCsv), await importer.importBusinessData()];
    const legalDocuments = await new LegalDocumentService(orm.em.fork() as EntityManager).syncShipped();
    return { imports, legalDocuments };
  });
}

/** The demo merchant, its outlets, transactions and categories; each subgraph writes its own. */
export async function seedDemo(config: Config, adminUrl: string): Promise<Record<string, Record<string, number>>> {
  const written: Record<string, Record<string, number>> = {};
  for (const definition of SUBGRAPHS) {
    written[definition.name] = await withSubgraph(definition, config, adminUrl, (orm) => definition.seedDemo(orm.em.fork() as EntityManager));
  }
  return written;
}

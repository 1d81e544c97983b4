import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  APP_OPERATIONS_DIR,
  OPERATIONS_FILE,
  ROOT,
  SUPERGRAPH_FILE,
  TRUSTED_DOCUMENTS_FILE,
  collectOperations,
  composeSupergraph,
  operationsManifest,
  trustedDocumentsManifest,
  validateOperations,
} from '@lib/federation/compose';
import { SUBGRAPHS } from '@subgraphs';
import { writeOperationTypes } from '@scripts/codegen';

/**
 * `npm run compose`: writes every subgraph SDL, the supergraph, the operations manifest, the app's trusted documents
 * and the generated operation types (`npm run codegen`), so that one command refreshes everything derived.
 */
async function main(): Promise<void> {
  const composition = await composeSupergraph(SUBGRAPHS);
  for (const subgraph of composition.subgraphs) writeFileSync(subgraph.file, subgraph.sdl);
  writeFileSync(SUPERGRAPH_FILE, composition.supergraphSdl);
  const operations = collectOperations();
  const problems = validateOperations(composition.apiSchema, operations);
  if (problems.length > 0) throw new Error(`invalid operation documents:\n  - ${problems.join('\n  - ')}`);
  writeFileSync(OPERATIONS_FILE, operationsManifest(operations));
  const appOperations = collectOperations(APP_OPERATIONS_DIR);
  const appProblems = validateOperations(composition.apiSchema, appOperations);
  if (appProblems.length > 0) throw new Error(`invalid app operation documents:\n  - ${appProblems.join('\n  - ')}`);
  writeFileSync(TRUSTED_DOCUMENTS_FILE, trustedDocumentsManifest(appOperations));
  const generated = await writeOperationTypes();
  const written = [...composition.subgraphs.map((s) => s.file), SUPERGRAPH_FILE, OPERATIONS_FILE, TRUSTED_DOCUMENTS_FILE];
  process.stdout.write(
    JSON.stringify({
      written: [...written.map((f) => path.relative(ROOT, f)), ...generated],
      operations: operations.length,
      trustedDocuments: appOperations.length,
    }) + '\n',
  );
}

main().catch((error: Error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});

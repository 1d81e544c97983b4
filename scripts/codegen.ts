import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generateOperationTypes } from '@lib/federation/operation-types';
import { projectRoot } from '@lib/config/project-root';

/** Writes the generated operation types (`npm run codegen`; `npm run compose` runs it after composing). */
export async function writeOperationTypes(): Promise<string[]> {
  const root = projectRoot();
  const files = await generateOperationTypes();
  for (const [file, content] of files) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), content);
  }
  return [...files.keys()];
}

if (require.main === module) {
  writeOperationTypes()
    .then((written) => process.stdout.write(JSON.stringify({ written }) + '\n'))
    .catch((error: Error) => {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    });
}

import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '@lib/config/project-root';
import { APP_OPERATION_TYPES_FILE, REST_OPERATION_TYPES_FILE, generateOperationTypes } from '@lib/federation/operation-types';

const ROOT = projectRoot();

describe('generated operation types (GraphQL Code Generator: supergraph + .graphql documents → TypeScript)', () => {
  it('has the committed files up to date (otherwise they are stale: run `npm run codegen` and commit the result)', async () => {
    const generated = await generateOperationTypes();
    expect([...generated.keys()].sort()).toEqual([APP_OPERATION_TYPES_FILE, REST_OPERATION_TYPES_FILE].sort());
    for (const [file, content] of generated) {
      expect({ file, content: readFileSync(path.join(ROOT, file), 'utf8') }).toEqual({ file, content });
    }
  });

  it('gives every REST operation file a typed document, and no adapter loads an untyped one', () => {
    const generated = readFileSync(path.join(ROOT, REST_OPERATION_TYPES_FILE), 'utf8');
    const sources: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir)) {
        const full = path.join(dir, entry);
        if (statSync(full).isDirectory()) walk(full);
        else sources.push(path.relative(ROOT, full).split(path.sep).join('/'));
      }
    };
    walk(path.join(ROOT, 'rest-adapters'));
    const operations = sources.filter((file) => file.endsWith('.graphql') && !file.endsWith('.fragment.graphql'));
    expect(operations.length).toBeGreaterThan(50);
    for (const file of operations) expect(generated).toContain(`'${file}'`);
    const untyped = sources.filter((file) => file.endsWith('.ts') && /\bloadOperation\(/.test(readFileSync(path.join(ROOT, file), 'utf8')));
    expect(untyped).toEqual([]);
  });
});

/**
 * The gateway's specs (`*.spec.ts`) in one Jest file, so that their module graph is loaded once, not once per spec
 * (test/README.md, "Area files and specs").
 */
import './src/executor.spec';
import './src/explorer.spec';

/**
 * The outlet subgraph's unit and integration specs (`*.spec.ts`, each beside the code it tests) in one Jest file, so that
 * their module graph is loaded once, not once per spec (test/README.md, "Area files and specs").
 */
import './src/modules/outlet/outlet.resolver.spec';
import './src/modules/outlet/outlet.service.spec';

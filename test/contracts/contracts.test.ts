/**
 * The contracts' specs (`*.spec.ts`) in one Jest file, so that their module graph is loaded once, not once per spec
 * (test/README.md, "Area files and specs").
 */
import './api-compatibility.spec';
import './api-pages.spec';
import './composition.spec';
import './doc-links.spec';
import './expand-contract.spec';
import './graphql-descriptions.spec';
import './image-boot.spec';
import './kubernetes.spec';
import './openapi.spec';
import './operation-types.spec';
import './runtime.spec';

/**
 * The transaction subgraph's unit and integration specs (`*.spec.ts`, each beside the code it tests) in one Jest file, so that
 * their module graph is loaded once, not once per spec (test/README.md, "Area files and specs").
 */
import './src/modules/mdr/mdr.spec';
import './src/modules/partition/partition-archive.spec';
import './src/modules/partition/partition.spec';
import './src/modules/payment-event/payment-event.resolver.spec';
import './src/modules/payment-event/payment-event.service.spec';
import './src/modules/payment-feed/payment-feed.repository.spec';
import './src/modules/payment-target/payment-target.service.spec';
import './src/modules/scoring/scoring.service.spec';
import './src/modules/scoring/scoring.spec';
import './src/modules/settlement/settlement.service.spec';
import './src/modules/statement/statement-files.spec';
import './src/modules/transaction/merchant-pages.spec';

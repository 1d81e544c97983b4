/**
 * The merchant subgraph's unit and integration specs (`*.spec.ts`, each beside the code it tests) in one Jest file, so that
 * their module graph is loaded once, not once per spec (test/README.md, "Area files and specs").
 */
import './src/modules/daily-summary/daily-summary-schedule.spec';
import './src/modules/merchant/merchant-lifecycle.resolver.spec';
import './src/modules/merchant/merchant-lifecycle.service.spec';
import './src/modules/notification/message-catalogue.spec';
import './src/modules/otp/otp-code.spec';
import './src/modules/partner/partner.service.spec';
import './src/modules/reference/import/reference-importer.spec';
import './src/modules/reference/import/region-names.spec';
import './src/modules/registration/business-scale.spec';
import './src/modules/webhook/webhook-delivery.spec';

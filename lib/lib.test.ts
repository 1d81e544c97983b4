/**
 * lib/'s unit and integration specs (`*.spec.ts`, each beside the code it tests) in one Jest file, so that
 * their module graph is loaded once, not once per spec (test/README.md, "Area files and specs").
 */
import './auth/hmac-signature.spec';
import './auth/partner-token.spec';
import './auth/principal.spec';
import './auth/secret-hash.spec';
import './config/config.spec';
import './crypto/secret-box.spec';
import './db/database-urls.spec';
import './domain/qris/qris-payload.spec';
import './errors/app-error.spec';
import './events/cache-invalidation.spec';
import './events/live-feed.spec';
import './federation/embedded-subgraph.spec';
import './federation/replica-reads.spec';
import './federation/selection.spec';
import './http/metrics.spec';
import './jobs/job-worker.spec';
import './phone/indonesian-phone.spec';
import './rest/gateway-client.spec';
import './rest/micro-batch.spec';
import './rest/operation.spec';
import './rest/rate-limit.spec';
import './rest/response-times.spec';
import './rest/route.spec';
import './rest/validation-details.spec';
import './telemetry/tracing.spec';
import './time/zoned-time.spec';

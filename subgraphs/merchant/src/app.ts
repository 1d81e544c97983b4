import { openInvalidationRelay } from '@lib/events/cache-invalidation';
import type { SubgraphDefinition } from '@lib/federation/subgraph-definition';
import { merchantRequestScope } from './context';
import { merchantJobs } from './jobs';
import { migrations } from './migrations';
import { Bank, BankCredential } from './modules/bank/bank.entity';
import { Feedback } from './modules/feedback/feedback.entity';
import { LegalDocument } from './modules/legal-document/legal-document.entity';
import { Merchant } from './modules/merchant/merchant.entity';
import { Partner, PartnerCredential, PartnerMerchantAccess } from './modules/partner/partner.entity';
import { MerchantRegistration } from './modules/registration/registration.entity';
import { BusinessScale, BusinessType, BusinessTypeCategory } from './modules/reference/business.entity';
import { City, District, PostalCode, Province, ReferenceImport, Subdistrict } from './modules/reference/region.entity';
import { MerchantUser, User } from './modules/user/user.entity';
import { NotificationMessage, PushToken } from './modules/notification/notification.entity';
import { AccountSettings } from './modules/account-settings/account-settings.entity';
import { BankWebhookEndpoint, WebhookDelivery } from './modules/webhook/webhook.entity';
import { buildMerchantSchema } from './schema';
import { seedMerchantDemo } from './seed/demo.seed';
import { seedMerchantSandbox } from './seed/sandbox.seed';

/** The merchant subgraph: merchants and their lifecycle, identity, partners, banks, reference data. */
export const merchantSubgraph: SubgraphDefinition<ReturnType<typeof merchantRequestScope>> = {
  name: 'merchant',
  entities: [
    Merchant,
    Bank,
    BankCredential,
    Partner,
    PartnerCredential,
    PartnerMerchantAccess,
    Province,
    City,
    District,
    Subdistrict,
    PostalCode,
    ReferenceImport,
    BusinessTypeCategory,
    BusinessType,
    BusinessScale,
    LegalDocument,
    BankWebhookEndpoint,
    WebhookDelivery,
    User,
    MerchantUser,
    MerchantRegistration,
    Feedback,
    PushToken,
    NotificationMessage,
    AccountSettings,
  ],
  migrations,
  buildSchema: buildMerchantSchema,
  requestScope: merchantRequestScope,
  seedDemo: async (em, config) => ({ ...(await seedMerchantDemo(em, config)), ...(await seedMerchantSandbox(em, config)) }),
  // Relays the schema's cache-invalidation NOTIFYs to the REST and gateway copies (lib/events/cache-invalidation.ts).
  background: (config, log, databaseUrl) => openInvalidationRelay(config.redisUrl, databaseUrl, log),
  jobs: merchantJobs,
};

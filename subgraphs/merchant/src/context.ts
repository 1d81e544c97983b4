import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '@lib/config/config';
import { secretBoxFor } from '@lib/crypto/secret-box';
import type { SubgraphContext } from '@lib/federation/subgraph-context';
import { BankService } from './modules/bank/bank.service';
import { LegalDocumentService } from './modules/legal-document/legal-document.service';
import { MerchantLifecycleService } from './modules/merchant/merchant-lifecycle.service';
import { MerchantService } from './modules/merchant/merchant.service';
import { PartnerService } from './modules/partner/partner.service';
import { ReferenceService } from './modules/reference/reference.service';
import { MembershipService } from './modules/user/membership.service';
import { FeedbackService } from './modules/feedback/feedback.service';
import { RegistrationService } from './modules/registration/registration.service';
import { ProfileService } from './modules/user/profile.service';
import { TransactionAlertService } from './modules/transaction-alert/transaction-alert.service';
import { NotificationService } from './modules/notification/notification.service';
import { AccountSettingsService } from './modules/account-settings/account-settings.service';
import { AuthService } from './modules/auth/auth.service';
import { DeviceService } from './modules/device/device.service';
import { OtpHasher } from './modules/otp/otp-code';
import { OtpService } from './modules/otp/otp.service';
import { SessionService } from './modules/session/session.service';
import { MemberService } from './modules/member/member.service';
import { OutboundUrlPolicy } from './modules/webhook/outbound-url';
import { WebhookService } from './modules/webhook/webhook.service';
import { SuspensionService } from './modules/suspension/suspension.service';
import { SandboxService } from './modules/sandbox/sandbox.service';

const otpHashers = new Map<string, OtpHasher>();
function otpHasherFor(config: Config): OtpHasher {
  const keys = config.secrets.accepted.encryptionKey;
  let hasher = otpHashers.get(keys.join('\n'));
  if (!hasher) otpHashers.set(keys.join('\n'), (hasher = new OtpHasher(keys)));
  return hasher;
}

/** The request scope of the merchant subgraph: one instance of each service around the request's EntityManager. */
export function merchantRequestScope(em: EntityManager, config: Config) {
  const lifecycle = new MerchantLifecycleService(em, undefined, config.suspension.kycValidityMonths);
  const membership = new MembershipService(em);
  const accountSettings = new AccountSettingsService(em);
  const notification = new NotificationService(em, config);
  const device = new DeviceService();
  const otp = new OtpService(em, otpHasherFor(config), config.otp);
  const session = new SessionService(em, device);
  return {
    services: {
      bank: new BankService(em, secretBoxFor(config)),
      merchant: new MerchantService(em, config.suspension.kycValidityMonths),
      lifecycle,
      reference: new ReferenceService(em),
      legalDocument: new LegalDocumentService(em),
      partner: new PartnerService(em, secretBoxFor(config)),
      membership,
      profile: new ProfileService(em, membership),
      registration: new RegistrationService(em, lifecycle),
      feedback: new FeedbackService(em, membership),
      notification,
      transactionAlert: new TransactionAlertService(em, notification, accountSettings),
      device,
      otp,
      session,
      auth: new AuthService(em, otp, session, device, notification, secretBoxFor(config)),
      accountSettings,
      member: new MemberService(em),
      suspension: new SuspensionService(em, config, lifecycle, notification),
      sandbox: new SandboxService(em),
      webhook: new WebhookService(em, secretBoxFor(config), new OutboundUrlPolicy(config.outboundUrls)),
    },
  };
}

export type MerchantContext = SubgraphContext<ReturnType<typeof merchantRequestScope>>;

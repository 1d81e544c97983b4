import type { GraphQLSchema } from 'graphql';
import { buildFederatedSchema } from '@lib/federation/build-subgraph-schema';
import { BankResolver } from './modules/bank/bank.resolver';
import { LegalDocumentResolver } from './modules/legal-document/legal-document.resolver';
import { MerchantLifecycleResolver } from './modules/merchant/merchant-lifecycle.resolver';
import { merchantReference } from './modules/merchant/merchant.reference';
import { MerchantResolver } from './modules/merchant/merchant.resolver';
import { PartnerResolver } from './modules/partner/partner.resolver';
import { ReferenceResolver } from './modules/reference/reference.resolver';
import { RuntimeResolver } from './modules/runtime/runtime.resolver';
import { MembershipResolver } from './modules/user/membership.resolver';
import { FeedbackResolver } from './modules/feedback/feedback.resolver';
import { NotificationResolver } from './modules/notification/notification.resolver';
import { RegistrationResolver } from './modules/registration/registration.resolver';
import { ProfileResolver } from './modules/user/profile.resolver';
import { TransactionAlertResolver } from './modules/transaction-alert/transaction-alert.resolver';
import { AuthResolver } from './modules/auth/auth.resolver';
import { AccountSettingsResolver } from './modules/account-settings/account-settings.resolver';
import { ViewerResolver } from './modules/viewer/viewer.resolver';
import { MemberResolver, MerchantMembersResolver } from './modules/member/member.resolver';
import { MerchantConsentsResolver, PartnerConsentResolver } from './modules/partner/partner-consent.resolver';
import { SuspensionResolver } from './modules/suspension/suspension.resolver';
import { SandboxResolver } from './modules/sandbox/sandbox.resolver';
import { OperatorResolver, PartnerCredentialsResolver, WebhookDeliveryMerchantResolver } from './modules/operator/operator.resolver';

export function buildMerchantSchema(): Promise<GraphQLSchema> {
  return buildFederatedSchema(
    {
      resolvers: [
        MerchantResolver,
        MerchantLifecycleResolver,
        BankResolver,
        PartnerResolver,
        ReferenceResolver,
        LegalDocumentResolver,
        RuntimeResolver,
        MembershipResolver,
        NotificationResolver,
        AuthResolver,
        AccountSettingsResolver,
        ProfileResolver,
        RegistrationResolver,
        FeedbackResolver,
        TransactionAlertResolver,
        ViewerResolver,
        MemberResolver,
        MerchantMembersResolver,
        PartnerConsentResolver,
        MerchantConsentsResolver,
        OperatorResolver,
        PartnerCredentialsResolver,
        WebhookDeliveryMerchantResolver,
        SuspensionResolver,
        SandboxResolver,
      ],
    },
    merchantReference,
  );
}

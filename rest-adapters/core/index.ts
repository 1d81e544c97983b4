import { CORE_TIMES } from './times';
import type { RestAdapter } from '@lib/rest/route';
import { API_TAGS } from '../api-tags';
import health from './routes/health/health';
import otpRuntime from './routes/health/otp-runtime';
import { startLivePayments } from './live/live-payments';
import { posliteRoutes } from './routes/poslite';
import legalDocuments from './routes/public/legal-documents';
import businessScales from './routes/references/business-scales';
import businessTypes from './routes/references/business-types';
import cities from './routes/references/cities';
import districts from './routes/references/districts';
import postalCodes from './routes/references/postal-codes';
import provinces from './routes/references/provinces';
import subdistricts from './routes/references/subdistricts';
import accountSettings from './routes/auth/account-settings';
import accountSettingsUpdate from './routes/auth/account-settings-update';
import deviceLoginCancel from './routes/auth/device-login-cancel';
import externalPhoneVerify from './routes/auth/external-phone-verify';
import logout from './routes/auth/logout';
import emailRequestOtp from './routes/auth/profile-email-request-otp';
import emailVerifyOtp from './routes/auth/profile-email-verify-otp';
import pushTokens from './routes/auth/push-tokens';
import refresh from './routes/auth/refresh';
import requestOtp from './routes/auth/request-otp';
import resolvePhone from './routes/auth/resolve-phone';
import verifyOtp from './routes/auth/verify-otp';
import internalSendOtp from './routes/internal/notifications-otp';
import internalTestPush from './routes/internal/notifications-push-test';
import messagingStatus from './routes/webhooks/messaging-status';
import messagingStatusVerify from './routes/webhooks/messaging-status-verify';
import profile from './routes/auth/profile';
import profileUpdate from './routes/auth/profile-update';
import merchantRegistration from './routes/merchant/registration';
import merchantTransactions from './routes/merchant/transactions';
import merchantFeeOvercharges from './routes/merchant/fee-overcharges';
import merchantPaymentTerminal from './routes/merchant/payment-terminal';
import merchantFeedback from './routes/merchant/feedback';
import merchantReconciliation from './routes/merchant/reconciliation';
import merchantPaymentEvents from './routes/merchant/payment-events';
import merchantStatements from './routes/merchant/statements/list';
import merchantStatementRequest from './routes/merchant/statements/request';
import merchantStatementDownload from './routes/merchant/statements/download';
import registrationReview from './routes/internal/registration-review';
import registrationApprove from './routes/internal/registration-approve';
import merchantStatus from './routes/internal/merchant-status';
import transactionStatus from './routes/internal/transaction-status';
import transactionStatusBulk from './routes/internal/transaction-status-bulk';
import sandboxPaymentEvents from './routes/internal/sandbox-payment-events';

/** core-api.md: the merchant app, auth, internal and point-of-sale paths (more routes arrive per issue). */
export const coreAdapter: RestAdapter = {
  name: 'core',
  description: 'Core merchant API (core-api.md): reference data, public documents, health; app, auth, internal and point of sale.',
  times: () => CORE_TIMES,
  tags: API_TAGS.core,
  routes: [
    health,
    otpRuntime,
    legalDocuments,
    provinces,
    cities,
    districts,
    subdistricts,
    postalCodes,
    businessTypes,
    businessScales,
    resolvePhone,
    requestOtp,
    verifyOtp,
    externalPhoneVerify,
    deviceLoginCancel,
    refresh,
    logout,
    accountSettings,
    accountSettingsUpdate,
    emailRequestOtp,
    emailVerifyOtp,
    pushTokens,
    internalSendOtp,
    internalTestPush,
    messagingStatusVerify,
    messagingStatus,
    profile,
    profileUpdate,
    merchantRegistration,
    merchantTransactions,
    merchantFeeOvercharges,
    merchantPaymentTerminal,
    merchantFeedback,
    merchantReconciliation,
    merchantPaymentEvents,
    merchantStatements,
    merchantStatementRequest,
    merchantStatementDownload,
    registrationReview,
    registrationApprove,
    merchantStatus,
    transactionStatus,
    transactionStatusBulk,
    sandboxPaymentEvents,
    ...posliteRoutes,
  ],
  start: startLivePayments,
};

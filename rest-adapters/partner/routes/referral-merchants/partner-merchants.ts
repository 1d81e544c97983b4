import type { PartnerMerchantFieldsFragment } from '@rest-adapters/generated/operations';

/** A merchant in the partner's scope (partner-merchants.fragment.graphql). */
export type PartnerMerchantData = PartnerMerchantFieldsFragment;

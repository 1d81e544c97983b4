export interface PartnerMerchantData {
  merchantId: string;
  accessType: 'referral' | 'consent' | 'assignment';
  grantedAt: string;
  referralCode: string | null;
  referralPartnerId: string | null;
  merchant: { id: string; merchantCode: string; name: string; status: string };
}

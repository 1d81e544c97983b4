import type { EntityManager } from '@mikro-orm/postgresql';
import { BadInputError, InputProblems, NotFoundError } from '@lib/errors/app-error';
import type { Merchant } from '../merchant/merchant.entity';
import type { MerchantRegistration } from '../registration/registration.entity';
import { RegistrationRepository } from '../registration/registration.repository';
import type { MembershipService } from './membership.service';
import type { User } from './user.entity';
import { UserRepository } from './user.repository';
import type { MerchantSnapshotType, UserProfileType } from './profile.type';
import type { UpdateProfileInput } from './profile.input';

export const GENDERS = ['male', 'female'] as const;
const NIK_PATTERN = /^[0-9]{16}$/;
/** Pragmatic address check (one @, a dot in the domain, no spaces); verification proves the rest. */
export const EMAIL_PATTERN = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/;

/** A user's profile and the merchant snapshot of core-api.md §2 (GET/PUT /auth/profile). */
export class ProfileService {
  private readonly repo: UserRepository;

  constructor(
    em: EntityManager,
    private readonly memberships: MembershipService,
  ) {
    this.repo = new UserRepository(em);
  }

  async profileOf(userId: string): Promise<UserProfileType> {
    const user = await this.repo.byId(userId);
    if (!user) throw new NotFoundError('user');
    return toProfile(user, await this.snapshotOf(userId));
  }

  /**
   * "Active or in progress": the merchant the user acts for (MembershipService: not deleted, active first,
   * then the newest), else the user's open registration request, else null.
   */
  async snapshotOf(userId: string): Promise<MerchantSnapshotType | null> {
    const membership = await this.memberships.currentRowOf(userId);
    if (membership) return merchantSnapshot(membership.merchant);
    const registration = await this.repo.peer(RegistrationRepository).ofUser(userId);
    return registration ? registrationSnapshot(registration) : null;
  }

  /** Validates every given field before writing any; a changed email is no longer verified. */
  async update(userId: string, input: UpdateProfileInput): Promise<UserProfileType> {
    const user = await this.repo.byId(userId);
    if (!user) throw new NotFoundError('user');
    // Every field is checked before answering, so that a refusal lists all of them.
    const problems = new InputProblems();
    const text = (name: string, value: string | null | undefined, max: number, check?: (v: string) => string | null) =>
      problems.check(() => {
        if (value === undefined || value === null) return undefined;
        const trimmed = value.trim();
        if (trimmed === '') return null;
        if (trimmed.length > max) throw new BadInputError(`${name} must be at most ${max} characters`, { field: name, rule: 'maxLength' });
        const problem = check?.(trimmed);
        if (problem) {
          const field = name === 'gender' ? { field: name, rule: 'enum', allowed: GENDERS } : { field: name, rule: 'format' };
          throw new BadInputError(`${name} ${problem}`, field);
        }
        return trimmed;
      });
    const fullName = text('full_name', input.fullName, 100);
    const nik = text('nik', input.nik, 16, (v) => (NIK_PATTERN.test(v) ? null : 'must be 16 digits'));
    const gender = text('gender', input.gender, 10, (v) =>
      (GENDERS as readonly string[]).includes(v) ? null : `must be one of ${GENDERS.join(', ')}`,
    );
    const addressLine = text('address_line', input.addressLine, 300);
    const avatarUrl = text('avatar_url', input.avatarUrl, 2000, (v) => (isHttpsUrl(v) ? null : 'must be an https URL'));
    const email = text('email', input.email, 254, (v) => (EMAIL_PATTERN.test(v) ? null : 'must be an email address'))?.toLowerCase();
    problems.throwIfAny();
    if (fullName !== undefined) {
      user.fullName = fullName;
      user.displayName = fullName;
    }
    if (nik !== undefined) user.nik = nik;
    if (gender !== undefined) user.gender = gender;
    if (addressLine !== undefined) user.addressLine = addressLine;
    if (avatarUrl !== undefined) user.avatarUrl = avatarUrl;
    if (email !== undefined && email !== (user.email ?? null)) {
      user.email = email;
      user.emailVerifiedAt = null;
    }
    await this.repo.flush();
    return toProfile(user, await this.snapshotOf(userId));
  }
}

function isHttpsUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname.length > 0;
  } catch {
    return false;
  }
}

export function toProfile(user: User, merchant: MerchantSnapshotType | null): UserProfileType {
  return {
    userId: user.id,
    fullName: user.fullName ?? null,
    displayName: user.displayName ?? user.fullName ?? null,
    nik: user.nik ?? null,
    gender: user.gender ?? null,
    addressLine: user.addressLine ?? null,
    avatarUrl: user.avatarUrl ?? null,
    phone: user.phone,
    phoneVerified: !!user.phoneVerifiedAt,
    email: user.email ?? null,
    emailVerified: !!user.email && !!user.emailVerifiedAt,
    merchant,
  };
}

export function merchantSnapshot(m: Merchant): MerchantSnapshotType {
  return {
    id: m.id,
    merchantCode: m.merchantCode,
    name: m.name,
    status: m.status,
    isRegistration: false,
    businessEntityType: m.businessEntityType ?? null,
    contactPhone: m.phone ?? null,
    contactEmail: m.email ?? null,
    addressLine: m.addressLine ?? null,
    provinceName: m.addressProvince ?? null,
    cityName: m.addressCity ?? null,
    districtName: m.addressDistrict ?? null,
    subdistrictName: m.addressSubdistrict ?? null,
    postalCode: m.addressPostalCode ?? null,
    businessTypeId: m.businessTypeId ?? null,
    businessTypeName: m.categoryName ?? null,
    businessScaleName: m.businessScaleName ?? null,
    averageMonthlyRevenue: m.averageMonthlyRevenue ?? null,
    employeeCount: m.employeeCount ?? null,
    reviewedAt: m.reviewedAt ?? null,
    deviceFeeServiceAccepted: m.deviceFeeServiceAccepted,
    termsOfServiceAccepted: m.termsOfServiceAccepted,
    privacyPolicyAccepted: m.privacyPolicyAccepted,
  };
}

export function registrationSnapshot(r: MerchantRegistration): MerchantSnapshotType {
  return {
    id: r.id,
    merchantCode: r.merchantCode,
    name: r.merchantName,
    status: r.status,
    isRegistration: true,
    businessEntityType: r.businessEntityType,
    contactPhone: r.contactPhone,
    contactEmail: r.contactEmail ?? null,
    addressLine: r.addressLine ?? null,
    provinceName: r.provinceName ?? null,
    cityName: r.cityName ?? null,
    districtName: r.districtName ?? null,
    subdistrictName: r.subdistrictName ?? null,
    postalCode: r.postalCode ?? null,
    businessTypeId: r.businessTypeId,
    businessTypeName: r.businessTypeName,
    businessScaleName: r.businessScaleName,
    averageMonthlyRevenue: r.averageMonthlyRevenue,
    employeeCount: r.employeeCount,
    reviewedAt: null,
    deviceFeeServiceAccepted: r.deviceFeeServiceAccepted,
    termsOfServiceAccepted: r.termsOfServiceAccepted,
    privacyPolicyAccepted: r.privacyPolicyAccepted,
  };
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { BadInputError } from '@lib/errors/app-error';
import { toIndonesianE164 } from '@lib/phone/indonesian-phone';
import type { MembershipService } from '../user/membership.service';
import { FeedbackRepository } from './feedback.repository';
import type { FeedbackType, SubmitFeedbackInput } from './feedback.type';

/** Feedback bounds (core-api.md §8 leaves them open; docs/decisions/0007-input-validation-and-bounds.md). The table checks them too. */
export const FEEDBACK_CATEGORY_PATTERN = /^[a-z][a-z0-9_]{1,49}$/;
export const FEEDBACK_MAX_LABEL = 100;
export const FEEDBACK_MAX_MESSAGE = 2000;

export class FeedbackService {
  private readonly repo: FeedbackRepository;

  constructor(
    em: EntityManager,
    private readonly memberships: MembershipService,
  ) {
    this.repo = new FeedbackRepository(em);
  }

  async submit(userId: string, input: SubmitFeedbackInput): Promise<FeedbackType> {
    const categoryCode = input.categoryCode.trim();
    if (!FEEDBACK_CATEGORY_PATTERN.test(categoryCode)) {
      throw new BadInputError('category_code must be 2 to 50 lower-case letters, digits or _, starting with a letter');
    }
    const categoryLabel = input.categoryLabel.trim();
    if (!categoryLabel || categoryLabel.length > FEEDBACK_MAX_LABEL)
      throw new BadInputError(`category_label must be 1 to ${FEEDBACK_MAX_LABEL} characters`);
    if (input.rating != null && !(Number.isInteger(input.rating) && input.rating >= 1 && input.rating <= 5)) {
      throw new BadInputError('rating must be a whole number from 1 to 5');
    }
    const message = input.message?.trim() || null;
    if (message && message.length > FEEDBACK_MAX_MESSAGE)
      throw new BadInputError(`message must be at most ${FEEDBACK_MAX_MESSAGE} characters`);
    let contactPhone: string | null = null;
    if (input.contactPhone?.trim()) {
      contactPhone = toIndonesianE164(input.contactPhone);
      if (!contactPhone)
        throw new BadInputError('contact_phone must be an Indonesian phone number', { field: 'contact_phone', rule: 'format' });
    }
    const membership = await this.memberships.currentOf(userId);
    const feedback = this.repo.create({
      userId,
      merchantId: membership?.merchant.id ?? null,
      categoryCode,
      categoryLabel,
      rating: input.rating ?? null,
      message,
      contactPhone,
      allowFollowUp: input.allowFollowUp,
      source: 'mobile_app',
    });
    await this.repo.flush();
    return {
      id: feedback.id,
      merchantId: feedback.merchantId ?? null,
      categoryCode,
      categoryLabel,
      rating: feedback.rating ?? null,
      message,
      allowFollowUp: feedback.allowFollowUp,
      source: feedback.source,
      createdAt: feedback.createdAt,
    };
  }
}

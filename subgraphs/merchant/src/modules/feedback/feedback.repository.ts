import type { RequiredEntityData } from '@mikro-orm/core';
import { Repository } from '@lib/db/repository';
import { Feedback } from './feedback.entity';

/** Feedback from the app (`merchant.feedback`). */
export class FeedbackRepository extends Repository {
  /** A new feedback entry, written by the next flush. */
  create(data: RequiredEntityData<Feedback>): Feedback {
    return this.em.create(Feedback, data);
  }
}

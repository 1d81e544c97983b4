import { NotFoundError } from '@lib/errors/app-error';

export class LegalDocumentNotFoundError extends NotFoundError {
  constructor() {
    super('legal document');
  }
}

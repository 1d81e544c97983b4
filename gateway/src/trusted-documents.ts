import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import { projectRoot } from '@lib/config/project-root';
import { ErrorCode } from '@lib/errors/app-error';

export const TRUSTED_DOCUMENTS_PATH = path.join(projectRoot(), 'gateway', 'trusted-documents.json');

export interface TrustedDocument {
  id: string;
  name: string;
  document: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's operation is one of gateway/trusted-documents.json. */
    trustedDocument?: boolean;
  }
}

export function loadTrustedDocuments(file = TRUSTED_DOCUMENTS_PATH): Map<string, TrustedDocument> {
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as { documents: TrustedDocument[] };
  return new Map(manifest.documents.map((d) => [d.id, d]));
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export class PersistedQueryNotFound extends Error {}

/**
 * Resolves a POST body's document reference (docs/graphql.md "Trusted documents"): `documentId` ("sha256:<hex>" or
 * the hex) or APQ-style `extensions.persistedQuery.sha256Hash` name a trusted document, which becomes the query;
 * an unknown id is PERSISTED_QUERY_NOT_FOUND (nothing can be registered). A free-form `query` whose hash is in the
 * list counts as trusted too. Marks `req.trustedDocument`; enforcement is the caller's (it depends on the principal).
 */
export function resolveTrustedDocument(req: FastifyRequest, documents: Map<string, TrustedDocument>): void {
  req.trustedDocument = false;
  const body = req.body as Record<string, unknown> | null | undefined;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return;
  const extensions = (body.extensions ?? {}) as { persistedQuery?: { sha256Hash?: unknown } };
  const hash = typeof body.documentId === 'string' ? body.documentId.replace(/^sha256:/, '') : extensions.persistedQuery?.sha256Hash;
  if (extensions.persistedQuery) {
    // Apollo's own APQ cache is off: the trusted list is the only store of documents.
    const { persistedQuery: _ignored, ...rest } = extensions as Record<string, unknown>;
    body.extensions = rest;
  }
  delete body.documentId;
  if (typeof body.query === 'string') {
    if (typeof hash === 'string' && hash !== sha256Hex(body.query))
      throw new PersistedQueryNotFound('the document does not match its hash');
    req.trustedDocument = documents.has(sha256Hex(body.query));
    return;
  }
  if (hash === undefined) return;
  const document = typeof hash === 'string' ? documents.get(hash.toLowerCase()) : undefined;
  if (!document) throw new PersistedQueryNotFound('unknown trusted document');
  body.query = document.document;
  req.trustedDocument = true;
}

export const PERSISTED_QUERY_NOT_FOUND_BODY = (message: string) => ({
  errors: [{ message, extensions: { code: ErrorCode.PERSISTED_QUERY_NOT_FOUND } }],
});

import type { ApiPage } from './api-pages';
import type { CredentialKind } from './openapi';
import type { RestAdapter } from './route';

type Json = Record<string, any>;

/**
 * Who reads the reference. Besides the whole (/docs, /openapi.json), each audience has its own page and document
 * (/docs/<audience>, /openapi/<audience>.json): only its operations, tags, security schemes and the components those
 * reference, introduced by its own walkthroughs. A tag says its audience (rest-adapters/api-tags.ts).
 */
export const AUDIENCES = {
  bank: {
    title: 'Bank API',
    summary: 'for banks (PSPs): merchant lookups, NMID assignment, payment events and settlements',
    pages: ['index.md', 'bank.md', 'sandbox.md', 'errors.md', 'versioning.md'],
  },
  partner: {
    title: 'Partner API',
    summary: 'for partners: referred merchants, their transactions, outlets and scoring',
    pages: ['index.md', 'partner.md', 'sandbox.md', 'errors.md', 'versioning.md'],
  },
  app: {
    title: 'App and point-of-sale API',
    summary: 'for the merchant app and point-of-sale devices: login, the merchant’s business, the point of sale',
    pages: ['index.md', 'app.md', 'sandbox.md', 'errors.md', 'versioning.md'],
  },
  internal: {
    title: 'Internal API',
    summary: 'for our own services and operators: reviews, statuses, the point of sale as a service, webhooks, health',
    pages: ['index.md', 'internal.md', 'sandbox.md', 'errors.md', 'versioning.md'],
  },
} as const satisfies Record<string, { title: string; summary: string; pages: readonly ApiPage[] }>;
export type Audience = keyof typeof AUDIENCES;
export const AUDIENCE_NAMES = Object.keys(AUDIENCES) as Audience[];

/** The credentials whose requests the reference page signs in the browser (HMAC: a key id and a secret). */
export const SIGNED_CREDENTIALS = ['bankLookup', 'bankEvent', 'partner'] as const satisfies readonly CredentialKind[];

/** Each tag's audience, per the adapters' tag lists. */
export function tagAudiences(adapters: RestAdapter[]): Map<string, Audience> {
  return new Map(adapters.flatMap((adapter) => adapter.tags.map((tag) => [tag.name, tag.audience] as const)));
}

/**
 * The whole document cut down to one audience: its operations (by their tag's audience), its tags, the security
 * schemes those operations use and the components they reference (transitively); its own title and introduction.
 */
export function audienceDocument(whole: Json, audience: Audience, adapters: RestAdapter[], description: string): Json {
  const audiences = tagAudiences(adapters);
  const paths: Json = {};
  const schemes = new Set<string>();
  for (const [url, item] of Object.entries<Json>(whole.paths ?? {})) {
    const kept = Object.entries<Json>(item).filter(([, operation]) => audiences.get(operation.tags?.[0]) === audience);
    if (kept.length === 0) continue;
    paths[url] = Object.fromEntries(kept);
    for (const [, operation] of kept)
      for (const requirement of operation.security ?? []) for (const name of Object.keys(requirement)) schemes.add(name);
  }
  const used = referencedComponents(paths, whole.components ?? {});
  const components: Json = {};
  for (const [section, entries] of Object.entries<Json>(whole.components ?? {})) {
    const names = section === 'securitySchemes' ? schemes : (used.get(section) ?? new Set<string>());
    const kept = Object.entries(entries).filter(([name]) => names.has(name));
    if (kept.length > 0) components[section] = Object.fromEntries(kept);
  }
  const tags = (whole.tags ?? []).filter((tag: Json) => audiences.get(tag.name) === audience);
  const { title, summary } = AUDIENCES[audience];
  return {
    ...whole,
    info: { ...whole.info, title: `${whole.info.title}: ${title}`, summary: `The reference ${summary}.`, description },
    tags,
    paths,
    components,
  };
}

/** Per components section, the names `root` references ($ref '#/components/<section>/<name>'), following references. */
function referencedComponents(root: unknown, components: Json): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  const queue: unknown[] = [root];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (value === null || typeof value !== 'object') return;
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string' && inner.startsWith('#/components/')) {
        const [section, name] = inner.slice('#/components/'.length).split('/').map(decodeURIComponent);
        const names = found.get(section) ?? new Set<string>();
        found.set(section, names);
        if (!names.has(name)) {
          names.add(name);
          queue.push(components[section]?.[name]);
        }
      } else visit(inner);
    }
  };
  while (queue.length > 0) visit(queue.pop());
  return found;
}

import { request } from 'undici';
import { v7 as uuidv7 } from 'uuid';
import type { Config, ProviderEndpoint } from '@lib/config/config';
import type { Language } from './message-catalogue';

/**
 * The outside parties that deliver notifications, as HTTP clients (JSON, `Authorization: Bearer <token>`), or
 * the log provider when no URL is configured (development: the message is only recorded).
 *
 * Messaging, WhatsApp Cloud API-like: POST url `{messaging_product: 'whatsapp', to: '62…', type: 'template',
 *   template: {name, language: {code: 'id' | 'en'}, components: [{type: 'body', parameters: [{type: 'text',
 *   parameter_name, text}]}]}}` → 2xx `{messages: [{id}]}` (the recipient's language, message-catalogue.ts).
 * Push, FCM HTTP v1-like: POST url `{message: {token, notification: {title, body}, data: {…strings}}}` → 2xx
 *   `{name: '…/messages/<id>'}`; a dead token → 404 (or 400) `{error: {status, details: [{errorCode:
 *   'UNREGISTERED'}]}}`, and only UNREGISTERED invalidates the token (other errors may be transient).
 * Email: POST url `{to, template, language, subject, text, parameters}` → 2xx `{id}` (subject and text rendered from the
 *   message catalogue in the recipient's language).
 */
export type SendOutcome =
  | { ok: true; messageId: string }
  | { ok: false; error: string; /** push only: the provider says the token is dead */ unregistered?: boolean };

export interface TemplateMessage {
  to: string;
  template: string;
  language: Language;
  parameters: Record<string, string>;
}

export interface EmailMessage extends TemplateMessage {
  subject: string | null;
  text: string | null;
}

export interface PushMessage {
  token: string;
  title: string;
  body: string;
  data: Record<string, string>;
}

export interface Providers {
  messaging: { name: string; send(message: TemplateMessage): Promise<SendOutcome> };
  email: { name: string; send(message: EmailMessage): Promise<SendOutcome> };
  push: { name: string; send(message: PushMessage): Promise<SendOutcome> };
}

export const LOG_PROVIDER = 'log';

const logged = async (): Promise<SendOutcome> => ({ ok: true, messageId: `log-${uuidv7()}` });

async function postJson(endpoint: Required<Pick<ProviderEndpoint, 'url'>> & ProviderEndpoint, body: unknown, timeoutMs: number) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (endpoint.token) headers.authorization = `Bearer ${endpoint.token}`;
  const response = await request(endpoint.url, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  const text = await response.body.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: response.statusCode, json: json as Record<string, any> | null };
}

/** Never throws: a network error or an unexpected answer is a failed send with a short reason. */
async function attempt(work: () => Promise<SendOutcome>): Promise<SendOutcome> {
  try {
    return await work();
  } catch (error) {
    return { ok: false, error: `provider unreachable: ${(error as Error).message ?? 'error'}`.slice(0, 300) };
  }
}

function messagingProvider(endpoint: ProviderEndpoint, timeoutMs: number): Providers['messaging'] {
  const url = endpoint.url;
  if (!url) return { name: LOG_PROVIDER, send: logged };
  return {
    name: 'messaging-http',
    send: ({ to, template, language, parameters }) =>
      attempt(async () => {
        const { status, json } = await postJson(
          { ...endpoint, url },
          {
            messaging_product: 'whatsapp',
            to: to.replace(/^\+/, ''),
            type: 'template',
            template: {
              name: template,
              language: { code: language },
              components: [
                {
                  type: 'body',
                  parameters: Object.entries(parameters).map(([name, text]) => ({ type: 'text', parameter_name: name, text })),
                },
              ],
            },
          },
          timeoutMs,
        );
        const id = json?.messages?.[0]?.id;
        if (status >= 200 && status < 300 && typeof id === 'string') return { ok: true, messageId: id };
        return { ok: false, error: `provider answered ${status}` };
      }),
  };
}

function emailProvider(endpoint: ProviderEndpoint, timeoutMs: number): Providers['email'] {
  const url = endpoint.url;
  if (!url) return { name: LOG_PROVIDER, send: logged };
  return {
    name: 'email-http',
    send: ({ to, template, language, subject, text, parameters }) =>
      attempt(async () => {
        const body = { to, template, language, subject, text, parameters };
        const { status, json } = await postJson({ ...endpoint, url }, body, timeoutMs);
        if (status >= 200 && status < 300 && typeof json?.id === 'string') return { ok: true, messageId: json.id };
        return { ok: false, error: `provider answered ${status}` };
      }),
  };
}

function pushProvider(endpoint: ProviderEndpoint, timeoutMs: number): Providers['push'] {
  const url = endpoint.url;
  if (!url) return { name: LOG_PROVIDER, send: logged };
  return {
    name: 'push-http',
    send: ({ token, title, body, data }) =>
      attempt(async () => {
        const { status, json } = await postJson(
          { ...endpoint, url },
          { message: { token, notification: { title, body }, data } },
          timeoutMs,
        );
        if (status >= 200 && status < 300 && typeof json?.name === 'string') return { ok: true, messageId: json.name };
        const details: unknown[] = Array.isArray(json?.error?.details) ? json.error.details : [];
        const unregistered = details.some((d) => (d as { errorCode?: unknown })?.errorCode === 'UNREGISTERED');
        return { ok: false, error: unregistered ? 'UNREGISTERED' : `provider answered ${status}`, unregistered };
      }),
  };
}

const cache = new WeakMap<Config, Providers>();
/** The providers of a configuration, built once per process (the config object is frozen and long-lived). */
export function providersFor(config: Config): Providers {
  let providers = cache.get(config);
  if (!providers) {
    const { messaging, push, email, timeoutMs } = config.notifications;
    providers = {
      messaging: messagingProvider(messaging, timeoutMs),
      push: pushProvider(push, timeoutMs),
      email: emailProvider(email, timeoutMs),
    };
    cache.set(config, providers);
  }
  return providers;
}

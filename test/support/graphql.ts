import { request } from 'undici';
import { v7 as uuidv7 } from 'uuid';
import { type OperatorRole, signOperatorToken } from '@lib/auth/operator-token';
import { sessionFor } from './core-auth';
import { adminQuery } from './test-database';
import type { TestStack } from './test-stack';

export interface GraphQLAnswer<T = any> {
  status: number;
  data?: T;
  errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, any> }[];
  extensions?: Record<string, any>;
}

/** One POST to the gateway's /graphql (a real HTTP request), body as given. */
export async function postGraphQL<T = any>(
  stack: TestStack,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<GraphQLAnswer<T>> {
  const response = await request(stack.gatewayUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const json = (await response.body.json()) as Omit<GraphQLAnswer<T>, 'status'>;
  return { status: response.statusCode, ...json };
}

export function gql<T = any>(
  stack: TestStack,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<GraphQLAnswer<T>> {
  return postGraphQL<T>(stack, { query, variables }, headers);
}

export async function operatorHeaders(stack: TestStack, roles: OperatorRole[], name = 'tester'): Promise<{ authorization: string }> {
  const token = await signOperatorToken({ name, roles, ttlSecs: 600 }, stack.config.operatorTokens);
  return { authorization: `Bearer ${token}` };
}

let phoneSeq = 0;
/** A fresh phone number per call, in this test file's own range. */
export function freshPhone(prefix: string): string {
  phoneSeq += 1;
  return `+62812${prefix}${String(phoneSeq).padStart(4, '0')}`;
}

/** A new user who is a member of `merchantId` with `role`, logged in (a live session and its access token). */
export async function memberHeaders(
  stack: TestStack,
  merchantId: string,
  role: 'owner' | 'admin' | 'staff' | 'viewer',
  outletIds: string[] = [],
  terminalId: string | null = null,
  phone = freshPhone('77'),
): Promise<{ headers: { authorization: string }; userId: string; memberId: string }> {
  const userId = uuidv7();
  const memberId = uuidv7();
  await adminQuery(
    stack.database.adminUrl,
    `insert into merchant.users (id, phone, created_at, updated_at) values ($1, $2, now(), now())`,
    [userId, phone],
  );
  await adminQuery(
    stack.database.adminUrl,
    `insert into merchant.merchant_users (id, merchant_id, user_id, role, outlet_ids, terminal_id, created_at) values ($1, $2, $3, $4, $5, $6, now())`,
    [memberId, merchantId, userId, role, outletIds, terminalId],
  );
  return { headers: await sessionFor(stack, userId), userId, memberId };
}

/** The codes of an answer's errors (empty when none). */
export function codes(answer: GraphQLAnswer): string[] {
  return (answer.errors ?? []).map((e) => e.extensions?.code as string);
}

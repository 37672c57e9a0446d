/**
 * @module
 * `customSession(fn)`: application fields in the get-session answer
 * (docs/custom-session.md). `fn` receives the caller's `{ session, user }`
 * and returns the fields to add; the answer is `{ session, user, ...fields }`.
 * Core calls it for every get-session answer not served from the cookie
 * cache, and stores its result in that cache (when it fits). The plugin adds
 * no tables and no routes.
 */
import type { EndpointContext, SessionExtra, SessionWithUser } from '@gatehouse/core'

type MaybePromise<T> = T | Promise<T>

/** A value JSON carries unchanged: what the client receives is what `fn` returned (no Dates: send ISO text). */
export type JsonValue = string | number | boolean | null | undefined | readonly JsonValue[] | { readonly [key: string]: JsonValue }

/** The fields `fn` returns: JSON values, under any names but core's own `session` and `user`. */
export type CustomFields = SessionExtra & { readonly [key: string]: JsonValue } & { readonly session?: never; readonly user?: never }

export interface CustomSessionPlugin<Fields extends CustomFields> {
  readonly id: 'custom-session'
  readonly customizeSession: (data: SessionWithUser, ctx: EndpointContext) => MaybePromise<Fields>
  /** Types only, never set at run time: read by `auth.api.getSession` and the React client. */
  readonly $sessionFields?: Fields
}

/**
 * @example
 * const auth = createAuth({
 *   baseURL: 'https://app.example.com',
 *   plugins: [
 *     customSession(async ({ user }) => ({ roles: await rolesOf(user.id), plan: 'pro' as const })),
 *   ],
 * })
 * const answer = await auth.api.getSession({ headers })
 * answer?.roles // string[]
 */
export function customSession<Fields extends CustomFields>(
  fn: (data: SessionWithUser, ctx: EndpointContext) => MaybePromise<Fields>,
): CustomSessionPlugin<Fields> {
  if (typeof fn !== 'function') throw new Error('customSession() needs a function of { session, user }')
  return { id: 'custom-session', customizeSession: fn }
}

/**
 * @module
 * The shapes of core's answers (docs/reference/routes.md, docs/core.md#tables),
 * as zod/mini schemas the client checks every response against. They check the fields core always sends and
 * let any other field through untouched (additional user and session fields,
 * plugin fields), and turn the ISO timestamps that JSON made of the server's
 * Dates back into Dates, so the values match the server's types.
 *
 * Plugins build their own shapes from these (`@gatehouse/react/client`
 * exports them): a client half has no business importing server code.
 */
import * as z from 'zod/mini'

/**
 * A Date as JSON carries it (ISO 8601, with an offset), revived into a Date.
 *
 * @example
 * z.parse(isoDate, '2025-01-02T03:04:05.000Z') instanceof Date // true
 */
export const isoDate = z.pipe(
  z.iso.datetime({ offset: true }),
  z.transform((text: string) => new Date(text)),
)

/**
 * The user, as every answer carrying one sends it.
 *
 * @example
 * const signUpShape = z.looseObject({ token: z.nullable(z.string()), user: userShape })
 */
export const userShape = z.looseObject({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  image: z.nullable(z.string()),
  createdAt: isoDate,
  updatedAt: isoDate,
})

/**
 * The session. `token` is the stored hash, a handle for revoke-session.
 *
 * @example
 * const listSessionsShape = z.array(sessionShape)
 */
export const sessionShape = z.looseObject({
  id: z.string(),
  userId: z.string(),
  token: z.string(),
  expiresAt: isoDate,
  createdAt: isoDate,
  updatedAt: isoDate,
  ipAddress: z.nullable(z.string()),
  userAgent: z.nullable(z.string()),
})

/**
 * `{ status }`, the answer of most account changes.
 *
 * @example
 * const unlinkAccount = { endpoint: 'unlinkAccount', method: 'POST', path: '/unlink-account', output: statusShape }
 */
export const statusShape = z.looseObject({ status: z.boolean() })

/** GET /get-session: `{ session, user }` or null. */
export const sessionWithUserShape = z.nullable(z.looseObject({ session: sessionShape, user: userShape }))

/** GET /list-accounts (docs/accounts.md#linked-accounts). */
export const linkedAccountShape = z.looseObject({
  id: z.string(),
  provider: z.string(),
  createdAt: isoDate,
  updatedAt: isoDate,
  accountId: z.string(),
  scopes: z.array(z.string()),
})

/** POST /delete-user and GET /delete-user/callback. */
export const successMessageShape = z.looseObject({ success: z.boolean(), message: z.string() })

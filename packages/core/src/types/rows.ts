/**
 * @module
 * The rows of the core tables (docs/core.md#tables) as handlers and `api` see them.
 * `session.token` is the SHA-256 of the cookie's token: a handle that names a
 * session (list, revoke) but cannot be used as one.
 */

export interface User {
  /** Additional fields configured under `user.additionalFields`. */
  [field: string]: unknown
  id: string
  name: string
  email: string
  emailVerified: boolean
  image: string | null
  createdAt: Date
  updatedAt: Date
}

export interface Session {
  /** Additional fields (`session.additionalFields`, plugin fields such as activeOrganizationId). */
  [field: string]: unknown
  id: string
  userId: string
  /** SHA-256 (base64url) of the session token; the token itself lives only in the client's cookie. */
  token: string
  expiresAt: Date
  createdAt: Date
  updatedAt: Date
  ipAddress: string | null
  userAgent: string | null
}

export interface SessionWithUser {
  session: Session
  user: User
}

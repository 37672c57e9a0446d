/**
 * @module
 * The example's Gatehouse: email and password with the organization
 * plugin, SQLite by default (DATABASE_PATH, relative to the working
 * directory) or PostgreSQL from DATABASE_URL, and every mail printed to the
 * console. Imported by the route handler, server components and server
 * actions only: the browser gets its types, never this code.
 */
import { createAuth, type AdapterFactory } from '@gatehouse/core'
import { postgresAdapter } from '@gatehouse/core/adapters/postgres'
import { sqliteAdapter } from '@gatehouse/core/adapters/sqlite'
import { organization } from '@gatehouse/organization'
import { PHASE_PRODUCTION_BUILD } from 'next/constants'

/** Where the app answers: cookies, links and the origin check read it. `next start` prints localhost. */
export const baseURL = process.env.BASE_URL ?? `http://localhost:${process.env.PORT ?? 3000}`

/**
 * `next build` imports the route handler to read its settings, with
 * NODE_ENV=production, and serves no request: it needs no secret then, while
 * `next start` refuses to run without AUTH_SECRET.
 */
const building = process.env.NEXT_PHASE === PHASE_PRODUCTION_BUILD

/** PostgreSQL when DATABASE_URL is set, else SQLite at DATABASE_PATH (its folder is made if missing). */
function database(): AdapterFactory {
  if (process.env.DATABASE_URL) return postgresAdapter(process.env.DATABASE_URL)
  return sqliteAdapter(process.env.DATABASE_PATH ?? 'data/gatehouse.db')
}

/** There is no mail server: the link a user would get is printed, to be opened by hand. */
function printMail(to: string, subject: string, url: string): void {
  console.log(`[mail] to ${to}: ${subject}\n       ${url}`)
}

export const auth = createAuth({
  appName: 'Gatehouse on Next.js',
  baseURL,
  basePath: '/api/auth',
  secret: process.env.AUTH_SECRET,
  ...(building ? { production: false } : {}),
  database: database(),
  // `next start` (or the proxy in front of it) writes x-forwarded-for: believe its last entry. Without this
  // setting, a bare auth.handler(request) ignores the header, and every client shares one sign-in budget
  // (README.md#client-addresses).
  advanced: { ipAddress: { trustedProxyCount: 1 } },
  emailAndPassword: {
    enabled: true,
    sendResetPassword: ({ user, url }) => printMail(user.email, 'Reset your password', url),
  },
  emailVerification: {
    sendOnSignUp: true,
    sendVerificationEmail: ({ user, url }) => printMail(user.email, 'Verify your email address', url),
  },
  plugins: [
    organization({
      // The example has no invitation page: the id is what accept-invitation takes.
      sendInvitationEmail: ({ id, email, organization: org, inviter }) => printMail(email, `${inviter.user.name} invited you to ${org.name}`, `invitation ${id}`),
    }),
  ],
})

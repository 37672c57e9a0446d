/**
 * @module
 * The example's Gatehouse: email and password, SQLite by default (a file
 * under data/, made if missing) or PostgreSQL from DATABASE_URL, every mail
 * printed to the console, and the front end's origin trusted: its requests
 * carry `Origin: <front end>`, and Gatehouse refuses a state-changing request
 * (sign-up, sign-in, sign-out) from an origin it does not trust, against
 * login CSRF (docs/security.md#trusted-origins-securityoriginsts).
 */
import { mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { createAuth, type AdapterFactory } from '@gatehouse/core'
import { postgresAdapter } from '@gatehouse/core/adapters/postgres'
import { sqliteAdapter } from '@gatehouse/core/adapters/sqlite'

export const port = Number(process.env.PORT ?? 3000)
export const webPort = Number(process.env.WEB_PORT ?? 3001)
/** Where the API answers: cookies, links and the origin check read it. */
export const baseURL = process.env.BASE_URL ?? `http://127.0.0.1:${port}`
/** Where the front end is served from: another origin, allowed by CORS and trustedOrigins. */
export const webOrigin = process.env.WEB_ORIGIN ?? `http://127.0.0.1:${webPort}`

/** PostgreSQL when DATABASE_URL is set, else SQLite at DATABASE_PATH (relative to the working directory). */
function database(): AdapterFactory {
  if (process.env.DATABASE_URL) return postgresAdapter(process.env.DATABASE_URL)
  const path = resolve(process.env.DATABASE_PATH ?? 'data/gatehouse.db')
  mkdirSync(dirname(path), { recursive: true })
  return sqliteAdapter(path)
}

/** There is no mail server: the link a user would get is printed, to be opened by hand. */
function printMail(to: string, subject: string, url: string): void {
  console.log(`[mail] to ${to}: ${subject}\n       ${url}`)
}

export const auth = createAuth({
  appName: 'Gatehouse on Hono',
  baseURL,
  basePath: '/api/auth',
  secret: process.env.AUTH_SECRET,
  database: database(),
  trustedOrigins: [webOrigin],
  emailAndPassword: {
    enabled: true,
    sendResetPassword: ({ user, url }) => printMail(user.email, 'Reset your password', url),
  },
  emailVerification: {
    sendOnSignUp: true,
    sendVerificationEmail: ({ user, url }) => printMail(user.email, 'Verify your email address', url),
  },
})

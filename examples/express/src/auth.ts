/**
 * @module
 * The example's Gatehouse: email and password, SQLite by default (a file
 * under data/, made if missing) or PostgreSQL from DATABASE_URL, every mail
 * printed to the console, and the billing plugin's webhook receiver at
 * `/api/auth/polar/webhooks` when BILLING_WEBHOOK_SECRET is set
 * (docs/billing.md#secrets-and-verification).
 */
import { mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { billing } from '@gatehouse/billing'
import { createAuth, type AdapterFactory } from '@gatehouse/core'
import { postgresAdapter } from '@gatehouse/core/adapters/postgres'
import { sqliteAdapter } from '@gatehouse/core/adapters/sqlite'

const port = Number(process.env.PORT ?? 3000)
export const baseURL = process.env.BASE_URL ?? `http://127.0.0.1:${port}`

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

const webhookSecret = process.env.BILLING_WEBHOOK_SECRET

export const auth = createAuth({
  appName: 'Gatehouse on Express',
  baseURL,
  basePath: '/api/auth',
  secret: process.env.AUTH_SECRET,
  database: database(),
  emailAndPassword: {
    enabled: true,
    sendResetPassword: ({ user, url }) => printMail(user.email, 'Reset your password', url),
  },
  emailVerification: {
    sendOnSignUp: true,
    sendVerificationEmail: ({ user, url }) => printMail(user.email, 'Verify your email address', url),
  },
  plugins: webhookSecret
    ? [
        billing({
          webhooks: {
            secret: webhookSecret,
            // The plugin has verified the signature and stored the event by now; an app grants or revokes access here.
            onPayload: (event, { webhookId }) => console.log(`[billing] ${event.type} (${webhookId})`),
          },
        }),
      ]
    : [],
})

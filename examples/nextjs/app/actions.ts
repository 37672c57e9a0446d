'use server'
/**
 * Server actions: functions the browser calls by posting a form, run on the
 * server. Next.js refuses an action posted from another origin (it compares
 * Origin with Host), which is the CSRF check here: `auth.api` calls are the
 * application's own and skip Gatehouse's origin check.
 */
import { headers } from 'next/headers'
import { redirect } from 'next/navigation'
import { auth } from '../lib/auth'
import { forwardCookies } from '../lib/forward-cookies'

/**
 * Signs out without client JavaScript: `auth.api.signOut` deletes the
 * session and answers the Set-Cookie headers that clear its cookies, which
 * go out through `cookies()`. Sign-out, not sign-in: `auth.api` is not rate
 * limited, so a password form here would let a guesser past the limit that
 * /api/auth/sign-in/email enforces (docs/rate-limits.md).
 */
export async function signOutOnServer(): Promise<void> {
  const { headers: set } = await auth.api.signOut({ headers: await headers(), returnHeaders: true })
  await forwardCookies(set)
  redirect('/sign-in')
}

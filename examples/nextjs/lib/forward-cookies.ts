/**
 * @module
 * A server action answers with Next.js's own response, so the cookies an
 * `auth.api` call sets (`returnHeaders: true` hands them over as
 * Set-Cookie headers) have to be written through `cookies()`, attribute for
 * attribute, or the browser never sees them.
 */
import { cookies } from 'next/headers'
import { parseSetCookie } from 'set-cookie-parser'

type SameSite = 'lax' | 'strict' | 'none'

function sameSite(value: string | undefined): SameSite | undefined {
  const lower = value?.toLowerCase()
  return lower === 'lax' || lower === 'strict' || lower === 'none' ? lower : undefined
}

/**
 * Writes every Set-Cookie of `headers` to the response through `cookies().set`.
 *
 * @example
 * const { headers: set } = await auth.api.signOut({ headers: await headers(), returnHeaders: true })
 * await forwardCookies(set)
 */
export async function forwardCookies(headers: Headers): Promise<void> {
  const jar = await cookies()
  for (const cookie of parseSetCookie(headers.getSetCookie())) {
    jar.set({
      name: cookie.name,
      value: cookie.value,
      path: cookie.path,
      domain: cookie.domain,
      expires: cookie.expires,
      maxAge: cookie.maxAge,
      secure: cookie.secure,
      httpOnly: cookie.httpOnly,
      sameSite: sameSite(cookie.sameSite),
      partitioned: cookie.partitioned,
    })
  }
}

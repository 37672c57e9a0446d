/**
 * @module
 * The hand-over from the ACS to the same-site completion step
 * (docs/sso.md#saml-sign-in). The ACS is a cross-site POST from the IdP: it
 * carries no SameSite=Lax cookie, so it cannot tell which browser started
 * the sign-in, and any Set-Cookie it answers would land in whatever browser
 * posted. It therefore only validates, stores the outcome under a one-time
 * code (`sso-saml-complete:` and the SHA-256 of 32 random characters, 60
 * seconds) and answers 303 to `GET /sso/saml2/sp/acs/:providerId/complete?code=`.
 * The browser follows that as a top-level GET, which carries its cookies;
 * the step checks the browser binding and only then signs in.
 */
import { sha256Base64url, type EndpointContext, type Row } from '@gatehouse/core'
import type { SsoLanding, SsoProfile } from '../types.js'
import type { SamlSubject } from './profile.js'

const PREFIX = 'sso-saml-complete:'
export const COMPLETION_TTL_MS = 60_000
const CODE_LENGTH = 32

export interface Completion {
  readonly providerId: string
  readonly profile: SsoProfile
  readonly subject: SamlSubject
  readonly landing: SsoLanding
  /** The RelayState handle the browser's cookie must hold; null for an IdP-initiated sign-in. */
  readonly binding: string | null
}

type Ctx = Pick<EndpointContext, 'db' | 'clock' | 'random'>

function identifier(code: string): string {
  return `${PREFIX}${sha256Base64url(code)}`
}

/**
 * @example
 * const code = await storeCompletion(ctx, { providerId, profile, subject, landing, binding })
 * return ctx.redirect(`${urls.complete}?code=${code}`, 303)
 */
export async function storeCompletion(ctx: Ctx, completion: Completion): Promise<string> {
  const code = ctx.random.string(CODE_LENGTH)
  await ctx.db.create({
    model: 'verification',
    data: {
      identifier: identifier(code),
      value: JSON.stringify(completion),
      expiresAt: new Date(ctx.clock.now().getTime() + COMPLETION_TTL_MS),
    },
  })
  return code
}

/** The completion of `code` for `providerId`, consumed: null when unknown, used, expired or another provider's. */
export async function takeCompletion(ctx: Ctx, code: string, providerId: string): Promise<Completion | null> {
  if (code.length !== CODE_LENGTH) return null
  const row = await ctx.db.consume<Row & { value: string; expiresAt: Date }>({
    model: 'verification',
    where: { field: 'identifier', value: identifier(code) },
  })
  if (!row || row.expiresAt.getTime() <= ctx.clock.now().getTime()) return null
  try {
    const completion = JSON.parse(row.value) as Completion
    return completion.providerId === providerId && typeof completion.profile?.accountId === 'string' ? completion : null
  } catch {
    return null
  }
}

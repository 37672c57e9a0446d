/**
 * @module
 * POST /sign-in/sso (docs/sso.md#signing-in): starts a sign-in through an
 * organization's identity provider and answers `{ url, redirect: true }`,
 * the provider's authorization URL (OIDC, oidc/flow.ts) or the SAML
 * request's URL (saml/start.ts).
 *
 * The provider is found by, in this order: `providerId`; `organizationSlug`
 * (the organization's provider, narrowed by `providerType`, then by the
 * domain of `email` or `domain` when it has several); `domain`; the domain
 * of `email`. A domain routes only to the provider verified for it (the
 * `verifiedDomain` column, unique): an organization that registered
 * someone else's domain cannot draw that domain's people to its IdP. The
 * answer depends on providers only, never on whether a user with `email`
 * exists (no account enumeration). With `domainVerification.required` (the
 * default) an unverified provider is refused here, before the browser goes
 * anywhere.
 *
 * `callbackURL` (required, as in the leading library), `errorCallbackURL`
 * and `newUserCallbackURL` were checked by the endpoint layer: relative
 * paths or trusted origins (docs/security.md#redirect-targets-securityredirectsts).
 * They travel in the server-side state, never through the IdP.
 */
import { AuthError, CoreErrors, defineEndpoint, type EndpointContext, type Row } from '@gatehouse/core'
import { z } from 'zod'
import { emailDomain, normalizeDomain } from '../domains/email-domain.js'
import { SsoErrors } from '../errors.js'
import { startOidcSignIn } from '../oidc/flow.js'
import { ssoOptionsOf } from '../options.js'
import { startSamlSignIn } from '../saml/start.js'
import type { ProviderRow } from '../schema.js'
import { findProvider, readProvider } from '../services/provider-secrets.js'
import type { SsoLanding, StoredProvider } from '../types.js'

/** RFC 6749 §3.3 scope-token characters. */
const SCOPE = /^[\x21\x23-\x5b\x5d-\x7e]+$/

const body = z.lazy(() =>
  z.object({
    email: z.string().max(320).optional(),
    organizationSlug: z.string().min(1).max(256).optional(),
    providerId: z.string().min(1).max(256).optional(),
    domain: z.string().max(256).optional(),
    callbackURL: z.string().min(1),
    errorCallbackURL: z.string().optional(),
    newUserCallbackURL: z.string().optional(),
    scopes: z.array(z.string().min(1).max(256).regex(SCOPE)).max(50).optional(),
    loginHint: z.string().max(320).optional(),
    requestSignUp: z.boolean().optional(),
    providerType: z.enum(['oidc', 'saml']).optional(),
  }),
)

type Body = z.output<typeof body>

/**
 * @example
 * const { url } = await auth.api.signInSSO({ body: { email: 'ada@acme.example', callbackURL: '/dashboard' } })
 */
export const signInSso = defineEndpoint({
  method: 'POST',
  path: '/sign-in/sso',
  body,
  handler: async (ctx) => {
    const { body } = ctx
    if (!body.email && !body.organizationSlug && !body.providerId && !body.domain) throw new AuthError(SsoErrors.SIGN_IN_TARGET_REQUIRED)
    const provider = await resolveProvider(ctx, body)
    if (!provider) throw new AuthError(SsoErrors.PROVIDER_NOT_FOUND)
    if (body.providerType === 'oidc' && !provider.oidc) throw new AuthError(SsoErrors.OIDC_NOT_CONFIGURED)
    if (body.providerType === 'saml' && !provider.saml) throw new AuthError(SsoErrors.SAML_NOT_CONFIGURED)
    if (ssoOptionsOf(ctx.auth).domainVerification.required && !provider.domainVerified) throw new AuthError(SsoErrors.PROVIDER_DOMAIN_NOT_VERIFIED)

    const landing: SsoLanding = {
      callbackURL: body.callbackURL,
      errorURL: body.errorCallbackURL || null,
      newUserURL: body.newUserCallbackURL || null,
      requestSignUp: body.requestSignUp === true,
    }
    if (provider.oidc) {
      const url = await startOidcSignIn(ctx, provider, { landing, scopes: body.scopes, loginHint: body.loginHint || body.email })
      return { url, redirect: true as const }
    }
    if (provider.saml) return { url: await startSamlSignIn(ctx, provider, landing), redirect: true as const }
    throw new AuthError(SsoErrors.PROVIDER_NOT_FOUND)
  },
})

async function resolveProvider(ctx: EndpointContext, body: Body): Promise<StoredProvider | null> {
  if (body.providerId) {
    const row = await findProvider(ctx.db, body.providerId)
    return row ? readProvider(ctx, row) : null
  }
  const domain = body.domain ? normalizeDomain(body.domain) : body.email ? emailDomain(body.email) : null
  if (body.organizationSlug) return organizationProvider(ctx, body.organizationSlug, body.providerType, domain)
  if (!domain) return null
  const row = await ctx.db.findOne<ProviderRow & Row>({ model: 'ssoProvider', where: { field: 'verifiedDomain', value: domain } })
  return row ? readProvider(ctx, row) : null
}

/** The organization's provider: the only one, or the one of the asked protocol, or the one of the domain. */
async function organizationProvider(
  ctx: EndpointContext,
  slug: string,
  type: 'oidc' | 'saml' | undefined,
  domain: string | null,
): Promise<StoredProvider | null> {
  const organization = await ctx.db.findOne<Row & { id: string }>({ model: 'organization', where: { field: 'slug', value: slug } })
  if (!organization) return null
  let rows = await ctx.db.findMany<ProviderRow & Row>({ model: 'ssoProvider', where: { field: 'organizationId', value: organization.id } })
  if (type) rows = rows.filter((row) => Boolean(type === 'oidc' ? row.oidcConfig : row.samlConfig))
  if (rows.length > 1 && domain) rows = rows.filter((row) => row.domain === domain)
  const [row, ...others] = rows
  if (!row) return null
  if (others.length > 0) {
    throw new AuthError(CoreErrors.VALIDATION_ERROR, {
      message: 'body.organizationSlug: the organization has several SSO providers; give providerId, providerType or email',
    })
  }
  return readProvider(ctx, row)
}

/**
 * @module
 * From a register or update body to the configuration stored
 * (docs/sso.md#registering-a-provider): defaults filled (discovery at
 * `{issuer}/.well-known/openid-configuration`, `/` as the SAML
 * `callbackUrl`, `client_secret_basic`), every URL checked by its kind
 * (services/url-policy.ts), and the identity fields compared on update.
 *
 * Identity fields decide who an assertion or ID Token says the user is: the
 * issuer, the OIDC client and endpoints, the SAML IdP's entry point, entity,
 * signing certificate, and the SP's entity, audience and ACS. Once accounts
 * are linked to a provider they stay fixed (409): pointed at another IdP, the
 * provider would sign the linked users in on whatever that IdP says their
 * `sub` or NameID is. Secrets (`clientSecret`, the SP keys), mapping, scopes
 * and the two-factor policy may change at any time.
 */
import { AuthError, type EndpointContext } from '@gatehouse/core'
import { SsoErrors } from '../../errors.js'
import { discoverOidc } from '../../oidc/discovery.js'
import { requireFetchable, requireLandingTarget, requireNavigable } from '../../services/url-policy.js'
import type { OidcConfig, SamlConfig } from '../../types.js'
import type { OidcConfigBody, SamlConfigBody } from './schemas.js'

type Ctx = Pick<EndpointContext, 'auth'>

/** Stored keys of `value` only, so an absent optional field is absent, not `undefined` (stable JSON). */
function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T
}

/**
 * The OIDC configuration to store; `current` is the stored one on update.
 *
 * @example
 * const oidc = oidcConfig({ issuer: body.issuer, body: body.oidcConfig })
 */
export function oidcConfig(input: { readonly issuer: string; readonly body: Partial<OidcConfigBody>; readonly current?: OidcConfig }): OidcConfig {
  const { issuer, body, current } = input
  const merged = defined({
    ...current,
    ...defined(body),
    issuer,
    mapping: body.mapping ?? current?.mapping,
  })
  const clientId = merged.clientId
  const clientSecret = merged.clientSecret
  if (!clientSecret) throw new AuthError(SsoErrors.CLIENT_SECRET_REQUIRED)
  return defined({
    ...merged,
    clientId: clientId ?? '',
    clientSecret,
    discoveryEndpoint: merged.discoveryEndpoint ?? `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`,
    tokenEndpointAuthentication: merged.tokenEndpointAuthentication ?? 'client_secret_basic',
    pkce: merged.pkce ?? true,
  })
}

/**
 * The SAML configuration to store; `current` is the stored one on update.
 *
 * @example
 * const saml = samlConfig({ issuer: body.issuer, body: body.samlConfig })
 */
export function samlConfig(input: {
  readonly issuer: string
  readonly body: Partial<SamlConfigBody>
  readonly current?: SamlConfig
}): SamlConfig {
  const { issuer, body, current } = input
  const idpMetadata = body.idpMetadata ? defined({ ...current?.idpMetadata, ...defined(body.idpMetadata) }) : current?.idpMetadata
  const spMetadata = body.spMetadata ? defined({ ...current?.spMetadata, ...defined(body.spMetadata) }) : current?.spMetadata
  const merged = defined({ ...current, ...defined(body), issuer, idpMetadata, spMetadata })
  // idpMetadata.cert wins over cert, as in the leading library; the one kept is the only key responses may be signed with.
  const cert = idpMetadata?.cert ?? merged.cert
  if (!cert) throw new AuthError(SsoErrors.SAML_CERT_REQUIRED)
  const entryPoint = merged.entryPoint
  if (!entryPoint) throw new AuthError(SsoErrors.SAML_NOT_CONFIGURED_FOR_UPDATE)
  return defined({
    ...merged,
    entryPoint,
    cert,
    callbackUrl: merged.callbackUrl ?? '/',
  })
}

/**
 * Checks every URL of a configuration by its kind: 400 naming the first
 * field that fails. On update, only the URLs that changed are fetched-checked
 * again (the DNS of an unchanged one is the sign-in's to check).
 *
 * @example
 * checkUrls(ctx, { issuer: body.issuer, oidc, saml: null })
 */
export function checkUrls(
  ctx: Ctx,
  next: { readonly issuer: string; readonly oidc: OidcConfig | null; readonly saml: SamlConfig | null },
  previous?: { readonly issuer: string; readonly oidc: OidcConfig | null; readonly saml: SamlConfig | null },
): void {
  const changed = (a: unknown, b: unknown) => previous === undefined || a !== b
  if (next.oidc) {
    const oidc = next.oidc
    const before = previous?.oidc ?? undefined
    if (changed(next.issuer, previous?.issuer)) requireFetchable(ctx, 'issuer', next.issuer)
    for (const field of ['discoveryEndpoint', 'tokenEndpoint', 'userInfoEndpoint', 'jwksEndpoint'] as const) {
      const value = oidc[field]
      if (value !== undefined && changed(value, before?.[field])) requireFetchable(ctx, `oidcConfig.${field}`, value)
    }
    if (oidc.authorizationEndpoint !== undefined) requireNavigable(ctx, 'oidcConfig.authorizationEndpoint', oidc.authorizationEndpoint)
  }
  if (next.saml) {
    const saml = next.saml
    requireNavigable(ctx, 'samlConfig.entryPoint', saml.entryPoint)
    for (const service of saml.idpMetadata?.singleSignOnService ?? []) requireNavigable(ctx, 'samlConfig.idpMetadata.singleSignOnService', service.Location)
    for (const service of saml.idpMetadata?.singleLogoutService ?? []) requireNavigable(ctx, 'samlConfig.idpMetadata.singleLogoutService', service.Location)
    requireLandingTarget(ctx, 'samlConfig.callbackUrl', saml.callbackUrl)
  }
}

const OIDC_IDENTITY = ['clientId', 'discoveryEndpoint', 'authorizationEndpoint', 'tokenEndpoint', 'userInfoEndpoint', 'jwksEndpoint'] as const
// Not `cert`: IdPs rotate their signing certificate before it expires, and the entity ID, entry point and metadata
// staying the same keep the provider pointed at the same IdP (docs/sso.md#updating-a-provider).
const SAML_IDENTITY = ['entryPoint', 'audience', 'identifierFormat', 'wantAssertionsSigned'] as const

/** JSON with sorted keys: two equal configurations compare equal whatever order their keys were written in. */
function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`
  if (typeof value === 'object' && value !== null) {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stable((value as Record<string, unknown>)[key])}`)
      .join(',')}}`
  }
  return JSON.stringify(value) ?? 'undefined'
}

/**
 * Whether an update changes who the provider says a user is (the module comment).
 *
 * @example
 * if (identityChanged(before, after) && (await hasLinkedAccounts(tx, providerId))) throw new AuthError(SsoErrors.IDENTITY_FIELDS_LOCKED)
 */
export function identityChanged(
  before: { readonly issuer: string; readonly oidc: OidcConfig | null; readonly saml: SamlConfig | null },
  after: { readonly issuer: string; readonly oidc: OidcConfig | null; readonly saml: SamlConfig | null },
): boolean {
  if (before.issuer !== after.issuer) return true
  if (before.oidc && after.oidc && OIDC_IDENTITY.some((field) => stable(before.oidc?.[field]) !== stable(after.oidc?.[field]))) return true
  if (before.saml && after.saml) {
    if (SAML_IDENTITY.some((field) => stable(before.saml?.[field]) !== stable(after.saml?.[field]))) return true
    const idp = (config: SamlConfig) => ({
      metadata: config.idpMetadata?.metadata,
      entityID: config.idpMetadata?.entityID,
      singleSignOnService: config.idpMetadata?.singleSignOnService,
    })
    const sp = (config: SamlConfig) => ({ metadata: config.spMetadata?.metadata, entityID: config.spMetadata?.entityID })
    if (stable(idp(before.saml)) !== stable(idp(after.saml)) || stable(sp(before.saml)) !== stable(sp(after.saml))) return true
  }
  return false
}

/**
 * 400 with the discovery's own message unless the provider's discovery
 * document can be fetched and names its issuer, or, with `skipDiscovery`,
 * the given endpoints are complete (oidc/discovery.ts).
 *
 * @example
 * await requireDiscovery(ctx, oidc)
 */
export async function requireDiscovery(ctx: Pick<EndpointContext, 'auth' | 'clock'>, oidc: OidcConfig): Promise<void> {
  const discovered = await discoverOidc(ctx, oidc, { fresh: true })
  if (!discovered.ok) throw new AuthError(SsoErrors.DISCOVERY_FAILED, { message: discovered.message })
}

const DISCOVERY_INPUTS = ['issuer', 'discoveryEndpoint', 'authorizationEndpoint', 'tokenEndpoint', 'userInfoEndpoint', 'jwksEndpoint', 'skipDiscovery'] as const

/** Whether an update changes what discovery starts from (then it is checked again). */
export function discoveryChanged(before: OidcConfig | null, after: OidcConfig | null): boolean {
  if (!before || !after) return before !== after
  return DISCOVERY_INPUTS.some((field) => before[field] !== after[field])
}

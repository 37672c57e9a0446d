/**
 * @module
 * What `sso(options)` accepts, and its defaults (docs/sso.md#options): ten
 * providers per organization, domain verification required before anyone
 * signs in through a provider, new members get `member`, IdP-initiated SAML
 * off, a minute of clock skew for SAML conditions, no two-factor page (so a
 * provider's `require` policy refuses a two-factor user: docs/sso.md#two-factor).
 * Options are resolved once,
 * when the plugin is made; routes and services read the resolved object at
 * run time.
 */
import { resolveTxt as dnsResolveTxt } from 'node:dns/promises'
import type { SsoProfile, StoredProvider } from './types.js'

type MaybePromise<T> = T | Promise<T>

/** Looks up the TXT records of a DNS name, as `node:dns/promises` `resolveTxt` answers: each record in chunks. */
export type ResolveTxt = (name: string) => Promise<string[][]>

/**
 * The role (or roles) a new member gets from what the IdP said: a map from
 * group names to roles, or a function. Nothing matched: `defaultRole`.
 */
export type RoleMapping =
  | Readonly<Record<string, string>>
  | ((profile: SsoProfile, provider: StoredProvider) => MaybePromise<string | readonly string[] | null | undefined>)

export interface SsoOptions {
  /** Most providers one organization may register. 0 turns registration off. Default 10. */
  readonly providersLimit?: number | undefined
  readonly domainVerification?: {
    /**
     * Nobody signs in through a provider until its domain is verified. Default true.
     * False lets an unverified provider create new users (email unverified), never
     * sign in or link an existing one (docs/sso.md#domains).
     */
    readonly required?: boolean | undefined
    /** The TXT lookup behind verify-domain. Default `resolveTxt` of `node:dns/promises`. */
    readonly resolveTxt?: ResolveTxt | undefined
  } | undefined
  /** How people an SSO sign-in creates or adds join the provider's organization (docs/sso.md#just-in-time-provisioning). */
  readonly organizationProvisioning?: {
    /** The role when the mapping gives none. Default `member`. */
    readonly defaultRole?: string | undefined
    readonly roleMapping?: RoleMapping | undefined
  } | undefined
  /** No user is created by an SSO sign-in unless it asked (`requestSignUp: true` on /sign-in/sso). Default false. */
  readonly disableImplicitSignUp?: boolean | undefined
  /**
   * The app's page for the second step of a sign-in (`'/two-factor'`), a path on this site. An SSO
   * sign-in through a provider whose `twoFactor` policy is `require`, of a user with two-factor on, ends
   * there with `?callbackURL=<where the sign-in lands>` instead of in a session; the page verifies the
   * code (POST /two-factor/verify-totp...) and then goes to `callbackURL`. Without it, such a sign-in is
   * refused with `two_factor_required` (docs/sso.md#two-factor).
   */
  readonly twoFactorPage?: string | undefined
  readonly saml?: {
    /** Accept responses no AuthnRequest of ours asked for. Default false (docs/sso.md#idp-initiated-sign-in). */
    readonly allowIdpInitiated?: boolean | undefined
    /** Milliseconds of clock difference tolerated on NotBefore / NotOnOrAfter. Default 60000. */
    readonly clockSkewMs?: number | undefined
  } | undefined
}

export interface ResolvedSsoOptions {
  readonly providersLimit: number
  readonly domainVerification: { readonly required: boolean; readonly resolveTxt: ResolveTxt }
  readonly organizationProvisioning: { readonly defaultRole: string; readonly roleMapping: RoleMapping | null }
  readonly disableImplicitSignUp: boolean
  readonly twoFactorPage: string | null
  readonly saml: { readonly allowIdpInitiated: boolean; readonly clockSkewMs: number }
}

export const DEFAULT_PROVIDERS_LIMIT = 10
/** Five minutes: the most skew an assertion's validity window may be stretched by. */
export const MAX_SAML_CLOCK_SKEW_MS = 300_000

export const DEFAULT_SAML_CLOCK_SKEW_MS = 60_000

/** A path on this site: one leading slash (not `//host`, which browsers read as another site), no backslash or space. */
const SITE_PATH = /^\/(?![/\\])[^\s\\]*$/

/**
 * @example
 * resolveOptions({ providersLimit: 3 }).domainVerification.required // true
 */
export function resolveOptions(options: SsoOptions = {}): ResolvedSsoOptions {
  const providersLimit = options.providersLimit ?? DEFAULT_PROVIDERS_LIMIT
  if (!Number.isInteger(providersLimit) || providersLimit < 0) throw new Error('sso() providersLimit must be a whole number, 0 or more')
  const clockSkewMs = options.saml?.clockSkewMs ?? DEFAULT_SAML_CLOCK_SKEW_MS
  // More than a few minutes of tolerance keeps an expired assertion usable; clocks are NTP-synchronised (docs/sso.md#saml-options).
  if (!Number.isFinite(clockSkewMs) || clockSkewMs < 0 || clockSkewMs > MAX_SAML_CLOCK_SKEW_MS) {
    throw new Error(`sso() saml.clockSkewMs must be between 0 and ${MAX_SAML_CLOCK_SKEW_MS} milliseconds`)
  }
  const defaultRole = options.organizationProvisioning?.defaultRole ?? 'member'
  if (defaultRole.trim() === '') throw new Error('sso() organizationProvisioning.defaultRole must name a role')
  // A path, not a URL: the page is the app's own, and a redirect target taken from options must not lead off the site.
  const twoFactorPage = options.twoFactorPage ?? null
  if (twoFactorPage !== null && !SITE_PATH.test(twoFactorPage)) throw new Error('sso() twoFactorPage must be a path on this site, such as "/two-factor"')
  return {
    providersLimit,
    domainVerification: {
      required: options.domainVerification?.required ?? true,
      resolveTxt: options.domainVerification?.resolveTxt ?? dnsResolveTxt,
    },
    organizationProvisioning: { defaultRole, roleMapping: options.organizationProvisioning?.roleMapping ?? null },
    disableImplicitSignUp: options.disableImplicitSignUp ?? false,
    twoFactorPage,
    saml: { allowIdpInitiated: options.saml?.allowIdpInitiated ?? false, clockSkewMs },
  }
}

/** Each auth's resolved options, set by the plugin's `init`: services shared by every route read them from here. */
const resolvedByAuth = new WeakMap<object, ResolvedSsoOptions>()

/** Called by the plugin's `init`. */
export function registerSsoOptions(auth: object, options: ResolvedSsoOptions): void {
  resolvedByAuth.set(auth, options)
}

/**
 * The resolved options of the sso plugin of `auth`.
 *
 * @example
 * const { domainVerification } = ssoOptionsOf(ctx.auth)
 */
export function ssoOptionsOf(auth: object): ResolvedSsoOptions {
  const options = resolvedByAuth.get(auth)
  if (!options) throw new Error('sso: the plugin is not registered on this auth (add sso() to plugins)')
  return options
}

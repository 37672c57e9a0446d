/**
 * @module
 * The authorization request (RFC 6749 §4.1.1, OpenID Connect Core §3.1.2),
 * from its checks to the next place the browser goes: the login page, the
 * consent page, or the client's redirect URI with a code or an error.
 *
 * Errors before the client and its redirect URI are verified (unknown client,
 * disabled client, redirect URI not registered exactly) are answered here and
 * never redirected: an unverified URI must not receive anything. Every later
 * error redirects with `error`, `error_description`, the request's `state`
 * and `iss` (RFC 9207), with one exception: a self-registered client's error
 * before the user did anything is shown on an error page instead (RFC 9700
 * §4.11.2). Anyone can register a client whose redirect URI is their own
 * site, and an error redirect needs no user and no consent, so the provider
 * would otherwise be an open redirector with its own trusted origin in the
 * link (docs/oidc-provider.md#verified-and-self-registered-clients).
 *
 * An impersonation session (a session row with `impersonatedBy`, set by the
 * admin plugin) never authorizes a client: the consent and the tokens would
 * be the user's, given by someone else, and would outlive the impersonation
 * (docs/oidc-provider.md#impersonation-sessions).
 *
 * The same function serves GET /oauth2/authorize, the resumption after
 * sign-in (the after-hook on sign-in) and the login page re-opening the
 * authorize URL; the pending request waits in a signed cookie meanwhile.
 */
import type { AuthContext, CookieJar } from '@gatehouse/core'
import { OAuthError, OidcErrors } from '../errors.js'
import { issuer } from '../keys/issuer.js'
import { verifyJwt } from '../keys/jwt.js'
import { PENDING_REQUEST_MAX_AGE, type OAuthClient, type ResolvedOidcOptions } from '../options.js'
import { findClient } from './clients.js'
import { createCode, type Grant } from './codes.js'
import { hasConsent } from './consents.js'
import { chooseAcr } from './amr.js'
import { sessionFacts } from './session-facts.js'
import { addPendingConsent } from './pending-consents.js'
import { isRegistered, withParams } from './redirect-uris.js'

/** The signed cookie holding an authorization request while the user signs in. */
export const LOGIN_COOKIE = 'oidc_login_prompt'

export interface FlowContext {
  readonly auth: AuthContext
  readonly cookies: CookieJar
}

export type AuthorizeQuery = Readonly<Record<string, unknown>>

const PROMPTS = new Set(['none', 'login', 'consent', 'select_account'])
/** RFC 7636 §4.2: 43 to 128 unreserved characters. */
const CODE_CHALLENGE = /^[A-Za-z0-9\-._~]{43,128}$/

interface ValidRequest {
  readonly client: OAuthClient
  readonly redirectURI: string
  readonly state: string | undefined
  readonly scopes: readonly string[]
  readonly nonce: string | undefined
  readonly codeChallenge: string | undefined
  readonly codeChallengeMethod: 'S256' | 'plain' | undefined
  readonly prompt: ReadonlySet<string>
  readonly maxAge: number | undefined
  readonly idTokenHint: string | undefined
  /** OpenID Connect Core §3.1.2.1 `acr_values`, in order of preference (voluntary: docs/oidc-provider.md#amr-and-acr). */
  readonly acrValues: readonly string[]
}

/** A redirect to `redirectURI` carrying an authorization error (RFC 6749 §4.1.2.1, RFC 9207). */
export function errorRedirect(
  ctx: FlowContext,
  target: { readonly redirectURI: string; readonly state?: string | undefined },
  error: string,
  description: string,
): string {
  return withParams(target.redirectURI, { error, error_description: description, state: target.state, iss: issuer(ctx) })
}

/** One value of a parameter; a repeated one is an error (RFC 6749 §3.1). */
function single(query: AuthorizeQuery, name: string): string | undefined | null {
  const value = query[name]
  if (value === undefined) return undefined
  if (typeof value !== 'string') return null
  return value === '' ? undefined : value
}

/** An authorization error: the client's redirect URI is verified, but whether it gets the error depends on who registered it. */
interface Refusal {
  readonly client: OAuthClient
  readonly redirectURI: string
  readonly state: string | undefined
  readonly error: string
  readonly description: string
}

type Checked = { readonly ok: true; readonly request: ValidRequest } | { readonly ok: false; readonly refusal: Refusal }

/**
 * Where the browser goes next: a redirect (the login page, the consent page,
 * the client), or an error shown here because redirecting it would make the
 * provider a redirector (a self-registered client, before the user interacted).
 */
export type AuthorizeStep =
  | { readonly redirect: string }
  | { readonly errorPage: { readonly error: string; readonly description: string } }

/**
 * Checks the request. Throws `OAuthError` for what must not be redirected;
 * answers the error redirect for the rest.
 */
export async function checkAuthorizeRequest(ctx: FlowContext, options: ResolvedOidcOptions, query: AuthorizeQuery): Promise<Checked> {
  const clientId = single(query, 'client_id')
  if (clientId === null || clientId === undefined) {
    throw new OAuthError(OidcErrors.INVALID_REQUEST, { message: 'client_id is required' })
  }
  const client = await findClient(ctx.auth.db, options, clientId)
  if (!client) throw new OAuthError(OidcErrors.UNKNOWN_CLIENT)
  const redirectURI = single(query, 'redirect_uri')
  // OpenID Connect Core §3.1.2.1: redirect_uri is required, and must match exactly.
  const holder = { type: client.type, isPublic: client.tokenEndpointAuthMethod === 'none' }
  if (!redirectURI || !isRegistered(client.redirectURLs, redirectURI, holder)) throw new OAuthError(OidcErrors.INVALID_REDIRECT_URI)
  if (client.disabled) throw new OAuthError(OidcErrors.CLIENT_DISABLED)

  const stateValue = single(query, 'state')
  const state = stateValue ?? undefined
  const fail = (error: string, description: string): Checked => ({ ok: false, refusal: { client, redirectURI, state, error, description } })
  if (stateValue === null) return fail('invalid_request', 'state must be given once')

  // Parameters not named anywhere here (display, claims_locales, ui_locales, claims, ...) are ignored (RFC 6749 §3.1).
  const names = ['response_type', 'scope', 'nonce', 'code_challenge', 'code_challenge_method', 'prompt', 'max_age', 'response_mode', 'id_token_hint', 'acr_values']
  const repeated = names.find((name) => single(query, name) === null)
  if (repeated) return fail('invalid_request', `${repeated} must be given once`)
  const param = (name: string) => single(query, name) ?? undefined

  // OpenID Connect Core §6.1 and §6.2: each unsupported parameter has its own error (discovery says neither is supported).
  if (query.request !== undefined) return fail('request_not_supported', 'The request parameter is not supported')
  if (query.request_uri !== undefined) return fail('request_uri_not_supported', 'The request_uri parameter is not supported')

  const responseType = param('response_type')
  if (!responseType) return fail('invalid_request', 'response_type is required')
  if (responseType !== 'code' || !client.responseTypes.includes('code')) {
    return fail('unsupported_response_type', 'Only the code response type is supported')
  }
  if (!client.grantTypes.includes('authorization_code')) {
    return fail('unauthorized_client', 'The client may not use the authorization code grant')
  }
  const responseMode = param('response_mode')
  if (responseMode !== undefined && responseMode !== 'query') return fail('invalid_request', 'Only the query response mode is supported')

  const requested = (param('scope') ?? options.defaultScope).split(' ').filter(Boolean)
  const allowed = client.scope ? new Set(client.scope.split(' ')) : null
  const unknown = requested.find((scope) => !options.scopes.includes(scope) || (allowed !== null && !allowed.has(scope)))
  if (unknown !== undefined) return fail('invalid_scope', `Unsupported scope: ${unknown}`)

  const prompt = new Set((param('prompt') ?? '').split(' ').filter(Boolean))
  const unknownPrompt = [...prompt].find((value) => !PROMPTS.has(value))
  if (unknownPrompt !== undefined) return fail('invalid_request', `Unsupported prompt: ${unknownPrompt}`)
  // OpenID Connect Core §3.1.2.1: none with any other value is an error.
  if (prompt.has('none') && prompt.size > 1) return fail('invalid_request', 'prompt=none cannot be combined with other values')

  const maxAgeText = param('max_age')
  let maxAge: number | undefined
  if (maxAgeText !== undefined) {
    if (!/^\d{1,10}$/.test(maxAgeText)) return fail('invalid_request', 'max_age must be a non-negative integer')
    maxAge = Number(maxAgeText)
  }

  const codeChallenge = param('code_challenge')
  const methodText = param('code_challenge_method')
  let codeChallengeMethod: 'S256' | 'plain' | undefined
  if (codeChallenge === undefined) {
    // RFC 9700 §2.1.1: public clients always; confidential ones when configured.
    if (options.requirePKCE || client.tokenEndpointAuthMethod === 'none') return fail('invalid_request', 'code_challenge is required')
    if (methodText !== undefined) return fail('invalid_request', 'code_challenge_method without code_challenge')
  } else {
    // RFC 7636 §4.3: the method defaults to plain.
    const method = methodText ?? 'plain'
    if (method === 'plain' && !options.allowPlainCodeChallengeMethod) {
      return fail('invalid_request', 'code_challenge_method must be S256')
    }
    if (method !== 'S256' && method !== 'plain') return fail('invalid_request', 'Unsupported code_challenge_method')
    if (!CODE_CHALLENGE.test(codeChallenge)) return fail('invalid_request', 'Malformed code_challenge')
    codeChallengeMethod = method
  }

  // offline_access is granted only with prompt=consent; otherwise it is dropped, not refused (OpenID Connect Core §11).
  const scopes = prompt.has('consent') ? requested : requested.filter((scope) => scope !== 'offline_access')

  return {
    ok: true,
    request: {
      client,
      redirectURI,
      state,
      scopes,
      nonce: param('nonce'),
      codeChallenge,
      codeChallengeMethod,
      prompt,
      maxAge,
      idTokenHint: param('id_token_hint'),
      acrValues: (param('acr_values') ?? '').split(' ').filter(Boolean),
    },
  }
}

/** Who is signed in: the user, when the session began (the ID Token's auth_time), and the session's stored token hash. */
export interface SignedIn {
  readonly userId: string
  readonly signedInAt: Date
  readonly sessionToken: string
}

/** The login-cookie value: the request's query, and when the user was sent to sign in. */
interface PendingLogin {
  readonly query: Record<string, unknown>
  readonly issuedAt: number
}

function readPendingLogin(ctx: FlowContext): PendingLogin | null {
  const value = ctx.cookies.getSigned(LOGIN_COOKIE)
  if (!value) return null
  try {
    const parsed = JSON.parse(value) as PendingLogin
    return typeof parsed.issuedAt === 'number' && parsed.query && typeof parsed.query === 'object' ? parsed : null
  } catch {
    return null
  }
}

/** The authorization request waiting for sign-in, if the request carries one. */
export function pendingLoginQuery(ctx: FlowContext): Record<string, unknown> | null {
  return readPendingLogin(ctx)?.query ?? null
}

function canonical(query: AuthorizeQuery): string {
  return JSON.stringify(Object.keys(query).sort().map((key) => [key, query[key]]))
}

/** `url` (absolute or a path) with `params` appended to its query. */
function appendQuery(url: string, params: URLSearchParams): string {
  const text = params.toString()
  if (!text) return url
  return `${url}${url.includes('?') ? '&' : '?'}${text}`
}

function toSearchParams(query: AuthorizeQuery): URLSearchParams {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) {
    if (typeof value === 'string') params.append(key, value)
    else if (Array.isArray(value)) for (const item of value) if (typeof item === 'string') params.append(key, item)
  }
  return params
}

/**
 * Where the browser goes next for this authorization request, given who is
 * signed in and since when (null when signed out). Sets or clears the pending-request
 * cookies as a side effect. `justSignedIn`: the user just signed in for
 * this request (the after-hook), so an error now follows their interaction.
 *
 * @example
 * const next = await continueAuthorization(ctx, options, ctx.query, { userId, signedInAt, sessionToken })
 * // { redirect: 'https://rp.test/cb?code=…&state=…&iss=…' }
 */
export async function continueAuthorization(
  ctx: FlowContext,
  options: ResolvedOidcOptions,
  query: AuthorizeQuery,
  signIn: SignedIn | null,
  flags: { readonly justSignedIn?: boolean } = {},
): Promise<AuthorizeStep> {
  const pending = readPendingLogin(ctx)
  // The user came back from the login page for this very request, or just signed in for it: they took part.
  const returning = pending !== null && canonical(pending.query) === canonical(query)
  const interacted = flags.justSignedIn === true || returning
  const refuse = (refusal: Refusal): AuthorizeStep =>
    refusal.client.verified || interacted
      ? { redirect: errorRedirect(ctx, refusal, refusal.error, refusal.description) }
      : { errorPage: { error: refusal.error, description: refusal.description } }

  const checked = await checkAuthorizeRequest(ctx, options, query)
  if (!checked.ok) return refuse(checked.refusal)
  const request = checked.request
  const fail = (error: string, description: string) => refuse({ ...request, error, description })
  const now = ctx.auth.clock.now().getTime()

  // A sign-in after we sent the user to the login page for this very request satisfies prompt=login and max_age.
  const signedInSince =
    flags.justSignedIn === true ||
    (signIn !== null && pending !== null && returning && signIn.signedInAt.getTime() > pending.issuedAt)
  const forcedLogin = request.prompt.has('login') || request.prompt.has('select_account')
  const tooOld = request.maxAge !== undefined && signIn !== null && now - signIn.signedInAt.getTime() > request.maxAge * 1000
  // OpenID Connect Core §3.1.2.1: id_token_hint names who the client expects. Another signed-in user counts as
  // nobody (prompt=none: login_required); someone other than the hinted user signing in for this request is refused.
  let otherUser = false
  if (request.idTokenHint !== undefined) {
    const hint = await verifyJwt(ctx, options, request.idTokenHint, { allowExpired: true, audience: request.client.clientId })
    if (!hint || typeof hint.sub !== 'string') return fail('invalid_request', 'id_token_hint is not an ID Token this provider issued to the client')
    otherUser = signIn !== null && signIn.userId !== hint.sub
    if (otherUser && signedInSince) return fail('login_required', 'The signed-in user is not the one id_token_hint names')
  }
  if (signIn === null || otherUser || ((forcedLogin || tooOld) && !signedInSince)) {
    if (request.prompt.has('none')) return fail('login_required', 'The user is not signed in')
    const value: PendingLogin = { query: { ...query }, issuedAt: now }
    ctx.cookies.setSigned(LOGIN_COOKIE, JSON.stringify(value), { maxAge: PENDING_REQUEST_MAX_AGE })
    return { redirect: appendQuery(options.loginPage, toSearchParams(query)) }
  }
  if (pending !== null) ctx.cookies.delete(LOGIN_COOKIE)

  const facts = await sessionFacts(ctx.auth.db, signIn.sessionToken)
  // OpenID Connect Core §3.1.2.6: access_denied, the answer of a user who says no. The real user never said yes.
  if (facts.impersonated) return fail('access_denied', 'An impersonation session cannot authorize applications')

  const { client } = request
  const grant: Grant = {
    clientId: client.clientId,
    redirectURI: request.redirectURI,
    userId: signIn.userId,
    scopes: request.scopes,
    state: request.state,
    nonce: request.nonce,
    codeChallenge: request.codeChallenge,
    codeChallengeMethod: request.codeChallengeMethod,
    authTime: signIn.signedInAt.getTime(),
    sessionToken: signIn.sessionToken,
    issuedAt: now,
    ...(facts.amr.length > 0 ? { amr: facts.amr } : {}),
    ...optionalAcr(chooseAcr(options.acrValues, facts.amr, request.acrValues)),
  }
  const needsConsent =
    !client.skipConsent && (request.prompt.has('consent') || !(await hasConsent(ctx.auth.db, client.clientId, signIn.userId, request.scopes)))
  if (needsConsent) {
    if (request.prompt.has('none')) return fail('consent_required', 'The user has not granted these scopes')
    if (!options.consentPage) throw new OAuthError(OidcErrors.NO_CONSENT_PAGE)
    const pendingConsent = await createCode(ctx.auth, 'consent', grant, PENDING_REQUEST_MAX_AGE)
    // The page posts consent_id back: the decision applies to this request only (services/pending-consents.ts).
    const consentId = addPendingConsent({ cookies: ctx.cookies, random: ctx.auth.random }, pendingConsent, PENDING_REQUEST_MAX_AGE)
    const pageQuery = new URLSearchParams({ client_id: client.clientId, scope: request.scopes.join(' '), consent_id: consentId })
    return { redirect: appendQuery(options.consentPage, pageQuery) }
  }
  const code = await createCode(ctx.auth, 'code', grant, options.codeExpiresIn)
  return { redirect: withParams(request.redirectURI, { code, state: request.state, iss: issuer(ctx) }) }
}

function optionalAcr(acr: string | undefined): { acr?: string } {
  return acr === undefined ? {} : { acr }
}

/**
 * Fixtures for the social sign-in tests: a browser made of fetch and a
 * cookie jar (requests to the app go through `auth.handler`, everything else
 * over loopback), a real OpenID Provider (panva's oidc-provider) on an
 * ephemeral 127.0.0.1 port with an interaction endpoint the test drives, and
 * a small plain OAuth 2.0 provider on node:http.
 */
import { createHash, randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair, type JWK } from 'jose'
import Provider from 'oidc-provider'
import { BASE } from './helpers.js'

const AUTH_BASE = `${BASE}/api/auth`

interface Handler {
  handler(request: Request): Promise<Response>
}

/** A browser: one cookie jar per host, redirects followed by hand. */
export class Browser {
  private readonly jar = new Map<string, Map<string, string>>()

  constructor(private readonly auth: Handler) {}

  cookies(url: string): string {
    const host = new URL(url).host
    return [...(this.jar.get(host) ?? new Map<string, string>())].map(([name, value]) => `${name}=${value}`).join('; ')
  }

  cookie(url: string, name: string): string | undefined {
    const host = new URL(url).host
    return [...(this.jar.get(host) ?? new Map<string, string>())].find(([key]) => key === name || key.endsWith(`.${name}`))?.[1]
  }

  /** Copies this browser's cookies for `url`'s host into another browser. */
  setCookie(url: string, name: string, value: string): void {
    const host = new URL(url).host
    const cookies = this.jar.get(host) ?? new Map<string, string>()
    cookies.set(name, value)
    this.jar.set(host, cookies)
  }

  deleteCookie(url: string, predicate: (name: string) => boolean): void {
    const cookies = this.jar.get(new URL(url).host)
    for (const name of [...(cookies?.keys() ?? [])]) if (predicate(name)) cookies?.delete(name)
  }

  /** One request. `omitCookies` models a cross-site POST, which carries no SameSite=Lax cookie. */
  async request(
    url: string,
    init: { method?: string; json?: unknown; form?: Record<string, string>; headers?: Record<string, string>; omitCookies?: boolean } = {},
  ): Promise<Response> {
    const headers = new Headers(init.headers)
    const cookie = init.omitCookies ? '' : this.cookies(url)
    if (cookie) headers.set('cookie', cookie)
    let body: string | undefined
    if (init.json !== undefined) {
      headers.set('content-type', 'application/json')
      body = JSON.stringify(init.json)
    } else if (init.form !== undefined) {
      headers.set('content-type', 'application/x-www-form-urlencoded')
      body = new URLSearchParams(init.form).toString()
    }
    const method = init.method ?? (body === undefined ? 'GET' : 'POST')
    const response = url.startsWith(`${BASE}/`)
      ? await this.auth.handler(new Request(url, { method, headers, ...(body === undefined ? {} : { body }) }))
      : await fetch(url, { method, headers, redirect: 'manual', ...(body === undefined ? {} : { body }) })
    this.store(url, response)
    return response
  }

  /**
   * Follows redirects from `url` while they stay on the auth routes or a loopback provider;
   * returns the last response and where the browser was sent last (an app page, say).
   */
  async navigate(url: string, init: Parameters<Browser['request']>[1] = {}): Promise<{ response: Response; location: string | null; visited: string[] }> {
    const visited: string[] = []
    let current = url
    let options = init
    for (let hop = 0; hop < 20; hop++) {
      visited.push(current)
      const response = await this.request(current, options)
      const location = response.headers.get('location')
      if (response.status < 300 || response.status >= 400 || !location) return { response, location: null, visited }
      const next = new URL(location, current).toString()
      if (!next.startsWith(`${AUTH_BASE}/`) && !next.startsWith('http://127.0.0.1:')) return { response, location: next, visited }
      current = next
      options = response.status === 307 || response.status === 308 ? options : {}
    }
    throw new Error('too many redirects')
  }

  private store(url: string, response: Response): void {
    const host = new URL(url).host
    const cookies = this.jar.get(host) ?? new Map<string, string>()
    for (const line of response.headers.getSetCookie()) {
      const first = line.split(';')[0] as string
      const index = first.indexOf('=')
      const name = first.slice(0, index)
      const value = first.slice(index + 1)
      if (/max-age=0/i.test(line) || /expires=Thu, 01 Jan 1970/i.test(line) || value === '') cookies.delete(name)
      else cookies.set(name, value)
    }
    this.jar.set(host, cookies)
  }
}

/** Starts a sign-in (or link) in `browser` and returns the provider URL it must visit. */
export async function startSocial(
  browser: Browser,
  body: Record<string, unknown>,
  path = '/sign-in/social',
): Promise<{ response: Response; body: { url?: string; redirect?: boolean } & Record<string, unknown> }> {
  const response = await browser.request(`${AUTH_BASE}${path}`, { json: body, headers: { origin: BASE } })
  return { response, body: (await response.clone().json()) as { url?: string; redirect?: boolean } }
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
}

export interface OidcAccount {
  readonly email: string
  readonly email_verified: boolean
  readonly name: string
}

export const OIDC_CLIENT = { id: 'gatehouse-rp', secret: 'gatehouse-rp-secret-0123456789abcdef' }

/**
 * A real OpenID Provider on 127.0.0.1. Sign-in interactions finish at once as
 * `provider.login` (set it before each flow); consent covers the requested scopes.
 * `signingKey` is the provider's private key, for minting ID Tokens in tests.
 */
export async function startOidcProvider(redirectIds: readonly string[]) {
  const server = createServer()
  const issuer = await listen(server)
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true })
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid: 'op-key', alg: 'RS256', use: 'sig' }
  const accounts = new Map<string, OidcAccount>()
  const state = { login: '' }
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: OIDC_CLIENT.id,
        client_secret: OIDC_CLIENT.secret,
        redirect_uris: redirectIds.map((id) => `${AUTH_BASE}/callback/${id}`),
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: ['oidc-provider-test-cookie-key-0123456789'] },
    ttl: { AccessToken: 3600, AuthorizationCode: 60, Grant: 3600, IdToken: 3600, Interaction: 600, RefreshToken: 86400, Session: 3600 },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'picture'] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    findAccount: async (_ctx, sub) => {
      const account = accounts.get(sub)
      if (!account) return undefined
      return { accountId: sub, claims: async () => ({ sub, ...account }) }
    },
  })
  // The provider's own warnings about development settings are noise here.
  provider.on('server_error', () => undefined)
  const callback = provider.callback()
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.startsWith('/interaction/')) {
      void finishInteraction(req, res).catch((error: unknown) => {
        res.statusCode = 500
        res.end(String(error))
      })
      return
    }
    callback(req, res)
  })
  async function finishInteraction(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const details = await provider.interactionDetails(req, res)
    const accountId = state.login
    const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) })
    grant.addOIDCScope(String(details.params.scope))
    const grantId = await grant.save()
    await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false })
  }
  return {
    issuer,
    provider,
    accounts,
    /** The subject the next interaction signs in. */
    set login(sub: string) {
      state.login = sub
    },
    signingKey: privateKey,
    publicKey,
    close: () => close(server),
  }
}

export interface MockUser {
  readonly id: string
  readonly email: string | null
  readonly email_verified: boolean
  readonly name: string
}

/**
 * A plain OAuth 2.0 provider: /authorize approves at once for `next.user` (or answers
 * `next.error`), /token checks client credentials, redirect URI and the PKCE verifier and
 * rotates refresh tokens, /me returns the profile for a bearer token.
 */
export async function startOAuthProvider(options: { clientId: string; clientSecret: string }) {
  const server = createServer()
  const origin = await listen(server)
  const codes = new Map<string, { user: MockUser; redirectUri: string; challenge: string | null; scope: string }>()
  const accessTokens = new Map<string, MockUser>()
  const refreshTokens = new Map<string, MockUser>()
  const behaviour = {
    user: { id: 'u-1', email: 'person@example.com', email_verified: true, name: 'Person' } as MockUser,
    /** Answer the authorization with this error instead of a code. */
    error: null as string | null,
    /** Leave the code out of the authorization response. */
    omitCode: false,
    /** Milliseconds the token endpoint waits before answering. */
    tokenDelay: 0,
    /** Seconds an access token lives. */
    expiresIn: 3600,
  }
  const stats = { tokenRequests: 0, refreshes: 0, authorizeParams: [] as URLSearchParams[] }

  const issue = (user: MockUser, scope: string) => {
    const access = `at-${randomUUID()}`
    const refresh = `rt-${randomUUID()}`
    accessTokens.set(access, user)
    refreshTokens.set(refresh, user)
    return { access_token: access, token_type: 'Bearer', expires_in: behaviour.expiresIn, refresh_token: refresh, scope }
  }
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' })
    res.end(JSON.stringify(body))
  }

  server.on('request', (req, res) => {
    const url = new URL(req.url ?? '/', origin)
    if (url.pathname === '/authorize') {
      const params = url.searchParams
      stats.authorizeParams.push(params)
      const redirect = new URL(params.get('redirect_uri') ?? '')
      const state = params.get('state')
      if (state) redirect.searchParams.set('state', state)
      if (behaviour.error) redirect.searchParams.set('error', behaviour.error)
      else if (!behaviour.omitCode) {
        const code = `code-${randomUUID()}`
        codes.set(code, {
          user: behaviour.user,
          redirectUri: params.get('redirect_uri') ?? '',
          challenge: params.get('code_challenge'),
          scope: params.get('scope') ?? '',
        })
        redirect.searchParams.set('code', code)
      }
      res.writeHead(302, { location: redirect.toString() })
      res.end()
      return
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      let text = ''
      req.on('data', (chunk: Buffer) => (text += chunk.toString()))
      req.on('end', () => {
        stats.tokenRequests += 1
        setTimeout(() => {
          const form = new URLSearchParams(text)
          const basic = req.headers.authorization?.startsWith('Basic ')
            ? Buffer.from(req.headers.authorization.slice(6), 'base64').toString().split(':').map(decodeURIComponent)
            : null
          const [clientId, clientSecret] = basic ?? [form.get('client_id'), form.get('client_secret')]
          if (clientId !== options.clientId || clientSecret !== options.clientSecret) return json(res, 401, { error: 'invalid_client' })
          if (form.get('grant_type') === 'authorization_code') {
            const entry = codes.get(form.get('code') ?? '')
            codes.delete(form.get('code') ?? '')
            if (!entry || entry.redirectUri !== form.get('redirect_uri')) return json(res, 400, { error: 'invalid_grant' })
            const verifier = form.get('code_verifier') ?? ''
            const challenge = createHash('sha256').update(verifier).digest('base64url')
            if (entry.challenge !== challenge) return json(res, 400, { error: 'invalid_grant', error_description: 'PKCE' })
            return json(res, 200, issue(entry.user, entry.scope))
          }
          if (form.get('grant_type') === 'refresh_token') {
            const user = refreshTokens.get(form.get('refresh_token') ?? '')
            // Rotation: a refresh token works once.
            refreshTokens.delete(form.get('refresh_token') ?? '')
            if (!user) return json(res, 400, { error: 'invalid_grant' })
            stats.refreshes += 1
            return json(res, 200, issue(user, 'read'))
          }
          return json(res, 400, { error: 'unsupported_grant_type' })
        }, behaviour.tokenDelay)
      })
      return
    }
    if (url.pathname === '/me') {
      const token = req.headers.authorization?.replace(/^Bearer /, '') ?? ''
      const user = accessTokens.get(token)
      if (!user) return json(res, 401, { error: 'invalid_token' })
      return json(res, 200, user)
    }
    json(res, 404, { error: 'not_found' })
  })

  return {
    origin,
    behaviour,
    stats,
    accessTokens,
    refreshTokens,
    close: () => close(server),
  }
}

/** A port nothing listens on (bound once, then released). */
export async function closedPort(): Promise<string> {
  const server = createServer()
  const origin = await listen(server)
  await close(server)
  return origin
}

/** The hidden fields and action of an auto-submitting form_post page. */
export function parseFormPost(html: string): { action: string; fields: Record<string, string> } {
  const action = /<form[^>]*action="([^"]+)"/i.exec(html)?.[1]
  if (!action) throw new Error('no form in the page')
  const fields: Record<string, string> = {}
  for (const match of html.matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/gi)) {
    fields[match[1] as string] = decodeEntities(match[2] as string)
  }
  return { action: decodeEntities(action), fields }
}

function decodeEntities(text: string): string {
  return text.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#x2F;/gi, '/').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>')
}

/** The wall clock, moved by hand: oidc-provider and oauth4webapi read real time, so tests shift from it. */
export function shiftedClock() {
  let offset = 0
  return {
    now: () => new Date(Date.now() + offset),
    advance(ms: number) {
      offset += ms
    },
  }
}

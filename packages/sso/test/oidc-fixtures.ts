/**
 * Identity providers for the OpenID Connect tests, each on an ephemeral
 * 127.0.0.1 port, none sharing code with the plugin's relying party:
 *
 * - panva's node-oidc-provider (the `oidc-provider` package), certified, with
 *   an interaction endpoint that signs `login` in at once and grants the
 *   requested scopes;
 * - a tiny IdP written here on node:http and node:crypto, whose every answer
 *   a test can bend (the `iss` of the authorization response, the ID Token's
 *   nonce, audience, issuer or signing key, the UserInfo subject), for the
 *   attacks. Tokens are signed with node:crypto: jose is not a dependency of
 *   this package.
 *
 * The RP under test is at `BASE` (core's test origin), reached in-process.
 */
import { createHash, generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import Provider from 'oidc-provider'

export const BASE = 'http://localhost:3000'
export const AUTH = `${BASE}/api/auth`
export const CLIENT = { id: 'gatehouse-sso', secret: 'gatehouse-sso-secret-0123456789abcdef' }

export function callbackURL(providerId: string): string {
  return `${AUTH}/sso/callback/${providerId}`
}

export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

export async function close(server: Server): Promise<void> {
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
}

function rsaKey(kid: string): { privateKey: KeyObject; jwk: Record<string, unknown>; publicJwk: Record<string, unknown> } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const jwk = { ...(privateKey.export({ format: 'jwk' }) as Record<string, unknown>), kid, alg: 'RS256', use: 'sig' }
  const publicJwk = { ...(publicKey.export({ format: 'jwk' }) as Record<string, unknown>), kid, alg: 'RS256', use: 'sig' }
  return { privateKey, jwk, publicJwk }
}

/** A compact JWS, RS256, signed with node:crypto. */
export function signJwt(payload: Record<string, unknown>, key: KeyObject, kid: string): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const input = `${encode({ alg: 'RS256', typ: 'JWT', kid })}.${encode(payload)}`
  return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`
}

export interface OidcAccount {
  readonly email: string
  readonly email_verified: boolean
  readonly name: string
  readonly groups?: readonly string[]
}

/**
 * node-oidc-provider on 127.0.0.1 with one confidential client whose redirect
 * URIs are the SSO callbacks of `providerIds`. Interactions finish at once as
 * `login` (set it before each flow).
 */
export async function startNodeOidcProvider(providerIds: readonly string[]) {
  const server = createServer()
  const issuer = await listen(server)
  const { jwk } = rsaKey('node-op-key')
  const accounts = new Map<string, OidcAccount>()
  const state = { login: '' }
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
        redirect_uris: providerIds.map(callbackURL),
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: ['node-oidc-provider-test-cookie-key-0123456789'] },
    ttl: { AccessToken: 3600, AuthorizationCode: 60, Grant: 3600, IdToken: 3600, Interaction: 600, Session: 3600 },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'picture'], groups: ['groups'] },
    scopes: ['openid', 'email', 'profile', 'groups'],
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: async (_ctx, sub) => {
      const account = accounts.get(sub)
      if (!account) return undefined
      return { accountId: sub, claims: async () => ({ sub, ...account }) }
    },
  })
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
    accounts,
    set login(sub: string) {
      state.login = sub
    },
    close: () => close(server),
  }
}

export interface FakeIdpBehaviour {
  /** Whether discovery advertises RFC 9207 `iss` in authorization responses. */
  advertiseIss: boolean
  /** The `iss` sent back with the code: the real issuer, none, or this value. */
  responseIss: 'issuer' | 'absent' | string
  /** Answer the authorization with this `error` instead of a code. */
  error: string | null
  /** The subject and claims the next code is for. */
  user: { sub: string; email: string; email_verified: boolean; name: string; groups?: readonly string[] }
  /** Claims in the ID Token: all of `user`'s, or only `sub` (the rest from UserInfo). */
  idTokenClaims: 'all' | 'sub-only'
  /** Overrides in the ID Token payload (a wrong nonce, aud, iss...). */
  idTokenOverrides: Record<string, unknown>
  /** Sign the ID Token with a key that is not in the JWKS. */
  signWithOtherKey: boolean
  /** Send an unsigned ID Token (`alg: none`). */
  unsigned: boolean
  /** The issuer the discovery document names; default the real one. */
  documentIssuer: string | null
  /** Leave the ID Token out of the token response. */
  omitIdToken: boolean
  /** The `sub` UserInfo answers; default the user's. */
  userInfoSub: string | null
}

/**
 * A small OpenID Provider a test controls: discovery, /authorize (approves at
 * once for `behaviour.user`), /token (client_secret_basic or _post, PKCE S256
 * checked), /jwks, /userinfo. Every request is recorded.
 */
export async function startFakeIdp(options: { clientId?: string; clientSecret?: string } = {}) {
  const clientId = options.clientId ?? CLIENT.id
  const clientSecret = options.clientSecret ?? CLIENT.secret
  const server = createServer()
  const issuer = await listen(server)
  const key = rsaKey('fake-idp-key')
  const other = rsaKey('fake-idp-key')
  const behaviour: FakeIdpBehaviour = {
    advertiseIss: true,
    responseIss: 'issuer',
    error: null,
    user: { sub: 'user-1', email: 'ada@acme.test', email_verified: true, name: 'Ada Lovelace' },
    idTokenClaims: 'all',
    idTokenOverrides: {},
    signWithOtherKey: false,
    unsigned: false,
    documentIssuer: null,
    omitIdToken: false,
    userInfoSub: null,
  }
  const codes = new Map<string, { user: FakeIdpBehaviour['user']; redirectUri: string; challenge: string; nonce: string | null }>()
  const accessTokens = new Map<string, FakeIdpBehaviour['user']>()
  const requests: { method: string; path: string; params: URLSearchParams; headers: IncomingMessage['headers'] }[] = []

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' })
    res.end(JSON.stringify(body))
  }

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', issuer)
    let text = ''
    req.on('data', (chunk: Buffer) => (text += chunk.toString()))
    req.on('end', () => {
      const params = req.method === 'POST' ? new URLSearchParams(text) : url.searchParams
      requests.push({ method: req.method ?? 'GET', path: url.pathname, params, headers: req.headers })
      switch (url.pathname) {
        case '/.well-known/openid-configuration':
          return json(res, 200, {
            issuer: behaviour.documentIssuer ?? issuer,
            authorization_endpoint: `${issuer}/authorize`,
            token_endpoint: `${issuer}/token`,
            jwks_uri: `${issuer}/jwks`,
            userinfo_endpoint: `${issuer}/userinfo`,
            response_types_supported: ['code'],
            subject_types_supported: ['public'],
            id_token_signing_alg_values_supported: ['RS256'],
            token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
            ...(behaviour.advertiseIss ? { authorization_response_iss_parameter_supported: true } : {}),
          })
        case '/authorize': {
          const redirect = new URL(params.get('redirect_uri') ?? '')
          const state = params.get('state')
          if (state) redirect.searchParams.set('state', state)
          if (behaviour.error) redirect.searchParams.set('error', behaviour.error)
          else {
            const code = `code-${randomUUID()}`
            codes.set(code, {
              user: behaviour.user,
              redirectUri: params.get('redirect_uri') ?? '',
              challenge: params.get('code_challenge') ?? '',
              nonce: params.get('nonce'),
            })
            redirect.searchParams.set('code', code)
          }
          if (behaviour.responseIss === 'issuer') redirect.searchParams.set('iss', issuer)
          else if (behaviour.responseIss !== 'absent') redirect.searchParams.set('iss', behaviour.responseIss)
          res.writeHead(302, { location: redirect.toString() })
          return res.end()
        }
        case '/token': {
          const basic = req.headers.authorization?.startsWith('Basic ')
            ? Buffer.from(req.headers.authorization.slice(6), 'base64').toString().split(':').map(decodeURIComponent)
            : null
          const [id, secret] = basic ?? [params.get('client_id'), params.get('client_secret')]
          if (id !== clientId || secret !== clientSecret) return json(res, 401, { error: 'invalid_client' })
          const entry = codes.get(params.get('code') ?? '')
          codes.delete(params.get('code') ?? '')
          if (!entry || entry.redirectUri !== params.get('redirect_uri')) return json(res, 400, { error: 'invalid_grant' })
          const challenge = createHash('sha256').update(params.get('code_verifier') ?? '').digest('base64url')
          if (entry.challenge !== challenge) return json(res, 400, { error: 'invalid_grant', error_description: 'PKCE' })
          const access = `at-${randomUUID()}`
          accessTokens.set(access, entry.user)
          const now = Math.floor(Date.now() / 1000)
          const claims = behaviour.idTokenClaims === 'all' ? entry.user : { sub: entry.user.sub }
          const payload = { iss: issuer, aud: clientId, iat: now, exp: now + 300, ...(entry.nonce ? { nonce: entry.nonce } : {}), ...claims, ...behaviour.idTokenOverrides }
          const signer = behaviour.signWithOtherKey ? other : key
          const idToken = behaviour.unsigned
            ? `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.`
            : signJwt(payload, signer.privateKey, 'fake-idp-key')
          return json(res, 200, { access_token: access, token_type: 'Bearer', expires_in: 300, ...(behaviour.omitIdToken ? {} : { id_token: idToken }) })
        }
        case '/jwks':
          return json(res, 200, { keys: [key.publicJwk] })
        case '/userinfo': {
          const user = accessTokens.get(req.headers.authorization?.replace(/^Bearer /, '') ?? '')
          if (!user) return json(res, 401, { error: 'invalid_token' })
          return json(res, 200, { ...user, sub: behaviour.userInfoSub ?? user.sub })
        }
        default:
          return json(res, 404, { error: 'not_found' })
      }
    })
  })

  return {
    issuer,
    behaviour,
    requests,
    /** Signs any payload with the IdP's real key (for hand-made tokens). */
    sign: (payload: Record<string, unknown>) => signJwt(payload, key.privateKey, 'fake-idp-key'),
    close: () => close(server),
  }
}

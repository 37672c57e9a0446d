/**
 * @module
 * POST /oauth2/introspect (RFC 7662), client-authenticated: whether a token
 * is active, with its scope, client, subject and times. Public clients
 * cannot authenticate, so they cannot introspect. A client sees its own
 * tokens; a trusted confidential client (a first-party resource server) sees
 * any. Everything else is `{ active: false }` (§2.2), so the endpoint cannot
 * be used to scan for tokens; so is a token of a client that has been
 * disabled, or of a user who was deleted or banned since it was issued: a
 * resource server must not keep serving them
 * (docs/oidc-provider.md#grants-end-with-the-accounts-credentials).
 */
import { defineEndpoint, type Row, type Store } from '@gatehouse/core'
import { OAuthError, OidcErrors } from '../errors.js'
import { issuer } from '../keys/index.js'
import type { ResolvedOidcOptions } from '../options.js'
import { authenticateClient, findClient, isConfidential } from '../services/clients.js'
import { digest } from '../services/secrets.js'
import type { TokenRow } from '../services/tokens.js'
import { noStore, oauthParams, param, requiredParam } from './params.js'

const seconds = (date: Date) => Math.floor(date.getTime() / 1000)

export function oauth2Introspect(options: ResolvedOidcOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/oauth2/introspect',
    body: oauthParams,
    metadata: { skipOriginCheck: true },
    handler: async (ctx) => {
      noStore(ctx.responseHeaders)
      const body = ctx.body ?? {}
      const client = await authenticateClient(ctx.db, options, ctx.headers, body)
      // RFC 7662 §2.1: the caller must authenticate; a public client has nothing to authenticate with.
      if (!isConfidential(client.type)) throw new OAuthError(OidcErrors.INVALID_CLIENT, { message: 'Introspection needs a confidential client' })
      const hash = await digest(requiredParam(body, 'token'))
      const now = ctx.clock.now().getTime()
      const order = param(body, 'token_type_hint') === 'refresh_token' ? (['refreshToken', 'accessToken'] as const) : (['accessToken', 'refreshToken'] as const)
      for (const field of order) {
        const row = await ctx.db.findOne<TokenRow>({ model: 'oauthAccessToken', where: { field, value: hash } })
        if (!row) continue
        const visible = row.clientId === client.clientId || (client.trusted && isConfidential(client.type))
        const expiresAt = field === 'accessToken' ? row.accessTokenExpiresAt : row.refreshTokenExpiresAt
        const active = visible && expiresAt !== null && expiresAt.getTime() > now && (field === 'accessToken' || row.rotatedAt === null)
        if (!active || !(await holdersActive(ctx.db, options, row, now))) return { active: false }
        return {
          active: true,
          scope: row.scopes,
          client_id: row.clientId,
          sub: row.userId,
          aud: row.clientId,
          iss: issuer(ctx),
          token_type: field === 'accessToken' ? 'Bearer' : 'refresh_token',
          exp: seconds(expiresAt),
          iat: seconds(row.createdAt),
        }
      }
      return { active: false }
    },
  })
}

/**
 * The client is still enabled and the user still exists and is not banned
 * (the admin plugin's `banned` and `banExpires` fields, read when present).
 */
async function holdersActive(db: Store, options: ResolvedOidcOptions, row: TokenRow, now: number): Promise<boolean> {
  const client = await findClient(db, options, row.clientId)
  if (!client || client.disabled) return false
  const user = await db.findOne<Row & { banned?: boolean | null; banExpires?: Date | null }>({ model: 'user', where: { field: 'id', value: row.userId } })
  if (!user) return false
  const banned = user.banned === true && (user.banExpires === null || user.banExpires === undefined || user.banExpires.getTime() > now)
  return !banned
}

/**
 * @module
 * The API key plugin (docs/api-key.md): keys for scripts, CLIs and other
 * services, owned by a user or by an organization.
 *
 * - A request carrying a key in `x-api-key` (`apiKeyHeaders`) runs as the
 *   key's user on the routes that allow it, `auth.api.getSession` included,
 *   through core's `authenticate` contract: never with a cookie, never on a
 *   route that changes credentials (docs/sessions.md#credentials-other-than-the-cookie).
 * - What ends a user's keys: a password reset, a proof of the mailbox into an
 *   unverified account, a ban and the deletion of the user (the ways core ends
 *   an account's sign-ins for its security); an organization's keys end with
 *   the organization.
 */
import { AuthError, definePlugin, type CredentialsRevoked, type EndpointContext, type RequestCredential, type Row, type User } from '@gatehouse/core'
import { ApiKeyErrors } from './errors.js'
import { resolveApiKeyOptions, type ApiKeyOptions, type ResolvedApiKeyOptions } from './options.js'
import { createApiKey } from './routes/create.js'
import { deleteApiKey, updateApiKey } from './routes/change.js'
import { getApiKey, listApiKeys } from './routes/read.js'
import { deleteAllExpiredApiKeys, verifyApiKey } from './routes/verify.js'
import { apiKeySchema } from './schema.js'
import { MODEL } from './services/keys.js'
import { checkKey, spendKey } from './services/use.js'

/** Reasons core ends a user's sign-ins that also end their keys: the recoveries of a taken-over account, a ban, a deletion. */
const ENDS_KEYS: ReadonlySet<CredentialsRevoked['reason']> = new Set(['password-reset', 'email-proven', 'banned', 'user-deleted'])

function keyOf(ctx: EndpointContext, options: ResolvedApiKeyOptions): string | null {
  for (const header of options.headers) {
    const value = ctx.headers.get(header)
    if (value) return value
  }
  return null
}

/** The session a key runs as: built for this request, stored nowhere; its id is the key's id, its token not the key. */
async function authenticate(ctx: EndpointContext, options: ResolvedApiKeyOptions): Promise<RequestCredential | undefined> {
  if (!options.sessions) return undefined
  const key = keyOf(ctx, options)
  if (key === null) return undefined
  const row = await checkKey(ctx, key)
  // An organization's key is no person: it is for verifyApiKey, not for a session.
  if (row.referenceType === 'organization') throw new AuthError(ApiKeyErrors.INVALID_REFERENCE_ID_FROM_API_KEY)
  const user = await ctx.db.findOne<User & Row>({ model: 'user', where: { field: 'id', value: row.referenceId } })
  if (!user) throw new AuthError(ApiKeyErrors.INVALID_REFERENCE_ID_FROM_API_KEY)
  if (user.banned === true) throw new AuthError(ApiKeyErrors.USER_BANNED)
  const spent = await spendKey(ctx, options, row)
  const now = ctx.clock.now()
  const { expiresIn = 604_800 } = ctx.options.session ?? {}
  return {
    source: 'api-key',
    mayChangeCredentials: false,
    session: {
      user,
      session: {
        id: spent.id,
        userId: user.id,
        token: `api-key:${spent.id}`,
        expiresAt: spent.expiresAt ?? new Date(now.getTime() + expiresIn * 1000),
        createdAt: now,
        updatedAt: now,
        ipAddress: ctx.ip,
        userAgent: ctx.headers.get('user-agent'),
      },
    },
  }
}

/** The plugin's endpoints by `auth.api` name (the leading library's names). */
export function apiKeyEndpoints(resolved: ResolvedApiKeyOptions) {
  return {
    createApiKey: createApiKey(resolved),
    verifyApiKey: verifyApiKey(resolved),
    getApiKey: getApiKey(),
    updateApiKey: updateApiKey(resolved),
    deleteApiKey: deleteApiKey(),
    listApiKeys: listApiKeys(),
    deleteAllExpiredApiKeys: deleteAllExpiredApiKeys(),
  }
}

export type ApiKeyEndpoints = ReturnType<typeof apiKeyEndpoints>

/**
 * @example
 * createAuth({ plugins: [apiKey({ defaultPrefix: 'ak_' })] })
 */
export function apiKey(options: ApiKeyOptions = {}) {
  const resolved = resolveApiKeyOptions(options)
  return definePlugin({
    id: 'api-key',
    // Named in the compile error of a client typed from this server without its client half (docs/client.md).
    clientHalf: { name: 'apiKeyClient', from: '@gatehouse/api-key/client' },
    schema: apiKeySchema,
    errors: ApiKeyErrors,
    endpoints: apiKeyEndpoints(resolved),
    authenticate: (ctx: EndpointContext) => authenticate(ctx, resolved),
    onCredentialsRevoked: async (event: CredentialsRevoked) => {
      if (!ENDS_KEYS.has(event.reason)) return
      await event.db.deleteMany({
        model: MODEL,
        where: [
          { field: 'referenceId', value: event.userId },
          { field: 'referenceType', value: 'user' },
        ],
      })
    },
    databaseHooks: {
      organization: {
        delete: {
          // In the deletion's own transaction: an organization's keys never outlive it.
          before: async (row: Row, hook: { readonly db?: import('@gatehouse/core').Store }) => {
            if (!hook.db) return
            await hook.db.deleteMany({
              model: MODEL,
              where: [
                { field: 'referenceId', value: String(row.id) },
                { field: 'referenceType', value: 'organization' },
              ],
            })
          },
        },
      },
    },
    cleanup: (_ctx, now) => [{ model: MODEL, field: 'expiresAt', before: now }],
    options: resolved,
  })
}

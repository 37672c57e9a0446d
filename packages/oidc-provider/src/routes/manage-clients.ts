/**
 * @module
 * Server-side client management: `api.oauth2CreateClient`,
 * `oauth2ListClients`, `oauth2UpdateClient`, `oauth2RotateClientSecret` and
 * `oauth2DeleteClient`, for applications that register clients from code
 * (docs/oidc-provider.md#registering-clients). Never routed: over HTTP they
 * answer 404, like core's set-password. The same checks as registration
 * apply; only these calls may mark a client `skipConsent`, mark it verified
 * (clients created here are) or disable it.
 */
import { defineEndpoint, type Row } from '@gatehouse/core'
import { z } from 'zod'
import { OAuthError, OidcErrors } from '../errors.js'
import type { ResolvedOidcOptions } from '../options.js'
import { fromRow, findClientRow, type StoredClientRow } from '../services/clients.js'
import {
  checkClientSettings,
  clientView,
  createClient,
  deleteClient,
  rotateClientSecret,
  updateClient,
} from '../services/client-registry.js'

/** A client's settings, built where a body needs them (inside z.lazy: docs/endpoints.md#schemas-built-on-first-use). */
const settings = () =>
  z.object({
    name: z.string().min(1),
    icon: z.string().nullable().optional(),
    redirectURLs: z.array(z.string()),
    postLogoutRedirectURLs: z.array(z.string()).optional(),
    type: z.enum(['web', 'native', 'user-agent-based', 'public']).optional(),
    tokenEndpointAuthMethod: z.enum(['none', 'client_secret_basic', 'client_secret_post']).optional(),
    grantTypes: z.array(z.string()).optional(),
    responseTypes: z.array(z.string()).optional(),
    scope: z.string().nullable().optional(),
    metadata: z.record(z.string(), z.unknown()).nullable().optional(),
    skipConsent: z.boolean().optional(),
    // Marks a client as vetted by the operator (docs/oidc-provider.md#verified-and-self-registered-clients).
    verified: z.boolean().optional(),
  })

export function oauth2CreateClient(options: ResolvedOidcOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/oauth2/create-client',
    serverOnly: true,
    body: z.lazy(() => settings().extend({ userId: z.string().optional() })),
    handler: async (ctx) => {
      const { userId, ...input } = ctx.body
      const { client, clientSecret } = await createClient(ctx, checkClientSettings(options, input), userId ?? null)
      return { ...clientView(client), ...(clientSecret !== undefined ? { clientSecret } : {}) }
    },
  })
}

export function oauth2ListClients() {
  return defineEndpoint({
    method: 'GET',
    path: '/oauth2/list-clients',
    serverOnly: true,
    query: z.lazy(() => z.object({ userId: z.string().optional() }).optional()),
    handler: async (ctx) => {
      const userId = ctx.query?.userId
      const rows = await ctx.db.findMany<StoredClientRow>({
        model: 'oauthApplication',
        ...(userId !== undefined ? { where: { field: 'userId', value: userId } } : {}),
        sortBy: { field: 'createdAt', direction: 'asc' },
      })
      return rows.map((row) => clientView(fromRow(row)))
    },
  })
}

export function oauth2UpdateClient(options: ResolvedOidcOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/oauth2/update-client',
    serverOnly: true,
    body: z.lazy(() => z.object({ clientId: z.string(), update: settings().partial().extend({ disabled: z.boolean().optional() }) })),
    handler: async (ctx) => {
      const row = await findClientRow(ctx.db, ctx.body.clientId)
      if (!row) throw new OAuthError(OidcErrors.CLIENT_NOT_FOUND)
      const current = fromRow(row)
      const { disabled, ...update } = ctx.body.update
      const merged = checkClientSettings(options, {
        name: current.name,
        icon: current.icon,
        redirectURLs: current.redirectURLs,
        postLogoutRedirectURLs: current.postLogoutRedirectURLs,
        type: current.type,
        tokenEndpointAuthMethod: current.tokenEndpointAuthMethod,
        grantTypes: current.grantTypes,
        responseTypes: current.responseTypes,
        scope: current.scope,
        metadata: current.metadata,
        skipConsent: current.skipConsent,
        verified: current.verified,
        ...withoutUndefined(update),
      })
      if (merged.type !== current.type) {
        // A secret cannot appear or vanish by an update: rotate or re-create the client instead.
        throw new OAuthError(OidcErrors.INVALID_CLIENT_METADATA, { message: 'The client type cannot be changed' })
      }
      const updated = await updateClient(ctx.db, current.clientId, merged, disabled)
      if (!updated) throw new OAuthError(OidcErrors.CLIENT_NOT_FOUND)
      return clientView(updated)
    },
  })
}

function withoutUndefined<T extends Row>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as Partial<T>
}

export function oauth2RotateClientSecret() {
  return defineEndpoint({
    method: 'POST',
    path: '/oauth2/rotate-client-secret',
    serverOnly: true,
    body: z.lazy(() => z.object({ clientId: z.string() })),
    handler: async (ctx) => {
      const clientSecret = await rotateClientSecret(ctx, ctx.body.clientId)
      if (clientSecret === null) throw new OAuthError(OidcErrors.CLIENT_NOT_FOUND)
      return { clientId: ctx.body.clientId, clientSecret }
    },
  })
}

export function oauth2DeleteClient() {
  return defineEndpoint({
    method: 'POST',
    path: '/oauth2/delete-client',
    serverOnly: true,
    body: z.lazy(() => z.object({ clientId: z.string() })),
    handler: async (ctx) => {
      if (!(await deleteClient(ctx.db, ctx.body.clientId))) throw new OAuthError(OidcErrors.CLIENT_NOT_FOUND)
      return { success: true }
    },
  })
}

/**
 * @module
 * GET /oauth2/client/{id}: a client's public face for the consent page,
 * `{ clientId, name, icon }` and nothing else (docs/oidc-provider.md#consent).
 * The consent page calls it through the client half, so errors come in core's
 * `{ code, message }` shape (CLIENT_NOT_FOUND), not OAuth's.
 */
import { AuthError, defineEndpoint } from '@gatehouse/core'
import { OidcErrors } from '../errors.js'
import type { ResolvedOidcOptions } from '../options.js'
import { findClient } from '../services/clients.js'

export function oauth2ClientInfo(options: ResolvedOidcOptions) {
  return defineEndpoint({
    method: 'GET',
    path: '/oauth2/client/:id',
    handler: async (ctx) => {
      const client = await findClient(ctx.db, options, ctx.params.id ?? '')
      if (!client || client.disabled) throw new AuthError(OidcErrors.CLIENT_NOT_FOUND)
      return { clientId: client.clientId, name: client.name, icon: client.icon }
    },
  })
}

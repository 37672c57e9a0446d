/**
 * @module
 * What the provider's browser-facing routes answer, as zod/mini schemas the
 * client checks responses against (docs/oidc-provider.md#the-client-half).
 * Known fields are checked, others pass through. Written here rather than
 * imported from the server code, so a browser bundle holds only these few
 * schemas.
 */
import * as z from 'zod/mini'
import { isoDate } from '@gatehouse/react/client'

/** GET /oauth2/client/:id: the public face of a client, for the consent page. */
export const publicClientShape = z.looseObject({
  clientId: z.string(),
  name: z.string(),
  icon: z.nullable(z.string()),
})

/**
 * GET /oauth2/consent?consent_id=…: the pending request as the consent page
 * shows it, read from the server (docs/oidc-provider.md#consent). `verified`
 * is false for a self-registered client; the URIs are https or null.
 */
export const consentRequestShape = z.looseObject({
  consentId: z.string(),
  scopes: z.array(z.string()),
  client: z.looseObject({
    clientId: z.string(),
    name: z.string(),
    verified: z.boolean(),
    icon: z.nullable(z.string()),
    clientURI: z.nullable(z.string()),
    policyURI: z.nullable(z.string()),
    tosURI: z.nullable(z.string()),
  }),
})

/** GET /oauth2/grants: one entry per connected app (docs/oidc-provider.md#connected-apps). */
export const grantShape = z.looseObject({
  clientId: z.string(),
  name: z.string(),
  icon: z.nullable(z.string()),
  scopes: z.array(z.string()),
  grantedAt: isoDate,
  lastUsedAt: z.nullable(isoDate),
})

/** POST /oauth2/grants/revoke. */
export const statusShape = z.looseObject({ status: z.boolean() })

/** POST /oauth2/consent from fetch: where the browser goes next (the client's redirect URI with a code, or access_denied). */
export const consentShape = z.looseObject({
  redirectURI: z.string(),
})

/**
 * POST /oauth2/register (RFC 7591 §3.2.1): the client's id, its secret (shown
 * this once; none for a public client), and the registered metadata echoed.
 * Times are seconds since the epoch, as the RFC has them.
 */
export const registeredClientShape = z.looseObject({
  client_id: z.string(),
  client_secret: z.optional(z.string()),
  client_id_issued_at: z.number(),
  client_secret_expires_at: z.number(),
  redirect_uris: z.array(z.string()),
  token_endpoint_auth_method: z.string(),
  grant_types: z.optional(z.array(z.string())),
  response_types: z.optional(z.array(z.string())),
  client_name: z.optional(z.string()),
})

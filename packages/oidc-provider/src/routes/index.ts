/**
 * @module
 * The plugin's endpoint map: the key is the `auth.api` method, each
 * endpoint's path the wire route (docs/oidc-provider.md#routes).
 */
import type { ResolvedOidcOptions } from '../options.js'
import { oauth2Authorize } from './authorize.js'
import { oauth2ClientInfo } from './client-info.js'
import { oauth2Consent } from './consent.js'
import { oauth2ConsentRequest } from './consent-request.js'
import { getOpenIdConfiguration } from './discovery.js'
import { oauth2EndSession, oauth2EndSessionConfirm } from './end-session.js'
import { oauth2ListGrants, oauth2RevokeGrant } from './grants.js'
import { oauth2Introspect } from './introspect.js'
import { getJwks } from './jwks.js'
import {
  oauth2CreateClient,
  oauth2DeleteClient,
  oauth2ListClients,
  oauth2RotateClientSecret,
  oauth2UpdateClient,
} from './manage-clients.js'
import { oauth2Register } from './register.js'
import { oauth2Revoke } from './revoke.js'
import { oauth2Token } from './token.js'
import { oauth2UserInfo } from './userinfo.js'

export function oidcProviderEndpoints(options: ResolvedOidcOptions) {
  return {
    getOpenIdConfig: getOpenIdConfiguration(options),
    getJwks,
    oauth2Authorize: oauth2Authorize(options),
    oauth2Consent: oauth2Consent(options),
    oauth2ConsentRequest: oauth2ConsentRequest(options),
    oauth2Token: oauth2Token(options),
    oauth2UserInfo: oauth2UserInfo(options),
    oauth2Register: oauth2Register(options),
    oauth2ClientInfo: oauth2ClientInfo(options),
    oauth2Revoke: oauth2Revoke(options),
    oauth2Introspect: oauth2Introspect(options),
    oauth2EndSession: oauth2EndSession(options),
    oauth2EndSessionConfirm: oauth2EndSessionConfirm(),
    oauth2ListGrants: oauth2ListGrants(options),
    oauth2RevokeGrant: oauth2RevokeGrant(),
    oauth2CreateClient: oauth2CreateClient(options),
    oauth2ListClients: oauth2ListClients(),
    oauth2UpdateClient: oauth2UpdateClient(options),
    oauth2RotateClientSecret: oauth2RotateClientSecret(),
    oauth2DeleteClient: oauth2DeleteClient(),
  }
}

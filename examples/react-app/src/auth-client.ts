/**
 * The one client of the app. Its types come from the example server's auth
 * (a type-only import: no server code reaches the bundle), so every call's
 * input and output, and every error code, is checked by the compiler.
 */
import { adminClient } from '@gatehouse/admin/client'
import { apiKeyClient } from '@gatehouse/api-key/client'
import { billingClient } from '@gatehouse/billing/client'
import { jwtClient } from '@gatehouse/jwt/client'
import { magicLinkClient } from '@gatehouse/magic-link/client'
import { oidcProviderClient } from '@gatehouse/oidc-provider/client'
import { organizationClient } from '@gatehouse/organization/client'
import { passkeyClient } from '@gatehouse/passkey/client'
import { createAuthClient, type ClientFromPlugins } from '@gatehouse/react'
import { scimClient } from '@gatehouse/scim/client'
import { ssoClient } from '@gatehouse/sso/client'
import { twoFactorClient } from '@gatehouse/two-factor/client'
import { usernameClient } from '@gatehouse/username/client'
import { emailOTPClient } from '@gatehouse/email-otp/client'
import { phoneNumberClient } from '@gatehouse/phone-number/client'
import { multiSessionClient, type MultiSessionClient } from '@gatehouse/multi-session/client'
import { anonymousClient } from '@gatehouse/anonymous/client'
import type { ExampleAuth } from '../../server/src/auth.js'

// The client halves of the server's plugins, in the server's order.
export const client = createAuthClient<ExampleAuth>({
  plugins: [organizationClient(), billingClient(), oidcProviderClient(), adminClient(), magicLinkClient(), twoFactorClient(), passkeyClient(), ssoClient(), scimClient(), apiKeyClient(), jwtClient(), usernameClient(), emailOTPClient(), phoneNumberClient(), anonymousClient(), multiSessionClient()],
})

export type SessionData = NonNullable<ReturnType<typeof client.useSession>['data']>

/**
 * `client.multiSession`, typed. The client mounts these routes (`multiSessionClient()` above), but the server adds
 * its plugin only with MULTI_SESSION=1, and the type read from its plugin list (one tuple or the other) leaves them
 * out. Against a server without the plugin they answer 404, which the account switcher reads as "off"
 * (docs/multi-session.md).
 *
 * @example
 * const { data: accounts, error } = await multiSession.listDeviceSessions()
 */
export const multiSession = (client as typeof client & Pick<ClientFromPlugins<readonly [MultiSessionClient]>, 'multiSession'>).multiSession

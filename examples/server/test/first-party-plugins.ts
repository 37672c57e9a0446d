/**
 * Every first-party plugin, each with the options that add the most tables
 * and routes (organization teams and run-time roles): for the tests that
 * look at all of them at once.
 */
import { admin } from '@gatehouse/admin'
import { apiKey } from '@gatehouse/api-key'
import { billing } from '@gatehouse/billing'
import { jwt } from '@gatehouse/jwt'
import { magicLink } from '@gatehouse/magic-link'
import { oidcProvider } from '@gatehouse/oidc-provider'
import { organization } from '@gatehouse/organization'
import { passkey } from '@gatehouse/passkey'
import { scim } from '@gatehouse/scim'
import { sso } from '@gatehouse/sso'
import { twoFactor } from '@gatehouse/two-factor'
import { username } from '@gatehouse/username'
import { emailOTP } from '@gatehouse/email-otp'
import { phoneNumber } from '@gatehouse/phone-number'
import { lastLoginMethod } from '@gatehouse/last-login-method'
import { multiSession } from '@gatehouse/multi-session'
import { anonymous } from '@gatehouse/anonymous'

/**
 * @example
 * const plugins: readonly GatehousePlugin[] = firstPartyPlugins()
 * mergeSchemas(coreSchema, ...plugins.map((plugin) => plugin.schema))
 */
export function firstPartyPlugins() {
  return [
    organization({ teams: { enabled: true }, dynamicAccessControl: { enabled: true } }),
    admin(),
    magicLink({ sendMagicLink: () => undefined }),
    twoFactor(),
    passkey({ rpID: 'localhost', rpName: 'Test', origin: 'http://localhost:3000' }),
    oidcProvider({ loginPage: '/login', consentPage: '/consent' }),
    billing({ webhooks: { secret: `whsec_${Buffer.alloc(32, 1).toString('base64')}` } }),
    sso(),
    scim(),
    apiKey(),
    jwt(),
    username(),
    emailOTP({ sendVerificationOTP: () => undefined }),
    phoneNumber({ sendOTP: () => undefined }),
    lastLoginMethod({ storeInDatabase: true }),
    multiSession(),
    anonymous(),
  ]
}

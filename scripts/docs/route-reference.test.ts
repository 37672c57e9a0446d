/**
 * docs/reference/routes.md is what the endpoint definitions say. When a
 * route changes, this test fails until `pnpm docs:routes` rewrites the page.
 */
import { billing } from '@gatehouse/billing'
import { organization } from '@gatehouse/organization'
import { describe, expect, it } from 'vitest'
import { coreEndpoints } from '../../packages/core/src/routes/index.js'
import { oidcProvider } from '../../packages/oidc-provider/src/index.js'
import { magicLink } from '../../packages/magic-link/src/index.js'
import { admin } from '../../packages/admin/src/index.js'
import { passkey } from '../../packages/passkey/src/index.js'
import { twoFactor } from '../../packages/two-factor/src/index.js'
import { sso } from '../../packages/sso/src/index.js'
import { scim } from '../../packages/scim/src/index.js'
import { apiKey } from '../../packages/api-key/src/index.js'
import { jwt } from '../../packages/jwt/src/index.js'
import { username } from '../../packages/username/src/index.js'
import { emailOTP } from '../../packages/email-otp/src/index.js'
import { phoneNumber } from '../../packages/phone-number/src/index.js'
import { multiSession } from '../../packages/multi-session/src/index.js'
import { anonymous } from '../../packages/anonymous/src/index.js'
import { pluginSection, routeReference } from './route-reference.js'

const sections = [
  { title: '@gatehouse/core', endpoints: coreEndpoints },
  pluginSection(
    '@gatehouse/organization',
    organization({ teams: { enabled: true }, dynamicAccessControl: { enabled: true } }),
    'Team routes exist with `teams: { enabled: true }`, role routes with `dynamicAccessControl: { enabled: true }`.',
  ),
  pluginSection(
    '@gatehouse/billing',
    billing({ webhooks: { secret: 'whsec_cmVmZXJlbmNlLWRvY3Mtc2VjcmV0' }, usage: { events: { api_call: { validate: () => true } } } }),
    'The webhook path is configurable (`webhooks.path`); `referenceId` names an organization whose billing the caller may read. `/usage/ingest` is routed only with `usage.events`, and accepts only those events (docs/billing.md#security); without it `ingestUsage` is server `api` only.',
  ),
  pluginSection(
    '@gatehouse/magic-link',
    magicLink({ sendMagicLink: () => {} }),
    'The GET verify route is the mailed link: it answers with a redirect, or with a confirmation page whose form posts to the POST route when the browser is signed in as someone else (docs/magic-link.md#the-flow).',
  ),
  pluginSection(
    '@gatehouse/admin',
    admin(),
    'Every route needs the permission its action names (docs/admin.md#roles-and-permissions); has-permission about another user or a role needs `user: list`.',
  ),
  pluginSection(
    '@gatehouse/oidc-provider',
    oidcProvider({ loginPage: '/login', consentPage: '/consent' }),
    'OAuth routes take form or JSON bodies and answer OAuth errors (`{ error, error_description }`); authorize and end-session answer with redirects. See docs/oidc-provider.md.',
  ),
  pluginSection(
    '@gatehouse/passkey',
    passkey(),
    'Options and verify routes are the two halves of a WebAuthn ceremony, tied by a signed challenge cookie (docs/passkeys.md#challenges).',
  ),
  pluginSection(
    '@gatehouse/two-factor',
    twoFactor(),
    'The verify routes and send-otp act for the pending sign-in of the browser (its `two_factor` cookie) or else the signed-in user (docs/two-factor.md#signing-in).',
  ),
  pluginSection(
    '@gatehouse/sso',
    sso(),
    'The management routes need the `sso` action they name in the provider\'s organization (docs/sso.md#who-manages-a-provider). The callback, ACS, completion, HTTP-POST request page and single logout service are reached by the browser or the IdP and end in redirects; their answers and every route\'s errors are in docs/sso.md#routes.',
  ),
  pluginSection(
    '@gatehouse/scim',
    scim(),
    "The token routes need a session whose member may create, update and delete members (and teams, with groups on) in the organization: owners and admins by default (docs/scim.md#tokens). The `/scim/v2` routes are called by the directory with `Authorization: Bearer <token>` and answer `application/scim+json` (RFC 7644); a write's body is the SCIM JSON text. The discovery routes need no token. Answers, codes and errors are in docs/scim.md#endpoints.",
  ),
  pluginSection(
    '@gatehouse/api-key',
    apiKey(),
    'Requests carrying a key in `x-api-key` run as its user on session routes, never on the ones that change credentials (docs/sessions.md#credentials-other-than-the-cookie). Limits and permissions are set by the server only; an organization key needs the `apiKey` action in its organization (docs/api-key.md#organization-keys).',
  ),
  pluginSection(
    '@gatehouse/jwt',
    jwt(),
    '`/jwks` is the key set every signing plugin shares (docs/plugins.md#signing-keys-shared-by-plugins); get-session also answers a token in `set-auth-jwt` (docs/jwt.md).',
  ),
  pluginSection(
    '@gatehouse/username',
    username(),
    'Sign-up and update-user also take `username` and `displayUsername` (docs/username.md#signing-up-and-changing-the-name). `/sign-in/username` is under the strict `/sign-in/*` limit and may answer `{ twoFactorRedirect: true }` instead of a session.',
  ),
  pluginSection(
    '@gatehouse/email-otp',
    emailOTP({ sendVerificationOTP: () => {}, changeEmail: { enabled: true } }),
    'Every route has its own limit per client (3 a minute by default) and every address a budget of codes (3 a minute, 10 an hour). The routes that mail a code answer `{ success: true }` whether or not the address has an account. `/sign-in/email-otp` may answer `{ twoFactorRedirect: true }` instead of a session (docs/email-otp.md).',
  ),
  pluginSection(
    '@gatehouse/phone-number',
    phoneNumber({ sendOTP: () => {}, sendPasswordResetOTP: () => {} }),
    '`/phone-number/*` is limited per client (10 a minute by default) and every number to a budget of codes. Numbers are E.164 after parsing; sign-up and update-user refuse `phoneNumber` (a number is set by proving it). The reset routes answer 404 without `sendPasswordResetOTP` (docs/phone-number.md).',
  ),
  pluginSection(
    '@gatehouse/multi-session',
    multiSession(),
    '`sessionToken` is a listed `session.token` (the public identifier); the browser must hold that account\'s signed cookie. `/sign-out` also ends every account of the browser (docs/multi-session.md).',
  ),
  pluginSection(
    '@gatehouse/anonymous',
    anonymous(),
    'A guest who signs up or in by any route is linked into the new account (`onLinkAccount`) and deleted in one transaction (docs/anonymous.md#linking).',
  ),
]

describe('route reference', () => {
  it('docs/reference/routes.md matches the endpoint definitions', async () => {
    await expect(routeReference(sections)).toMatchFileSnapshot('../../docs/reference/routes.md')
  })

  it('lists every routed endpoint once, with its method and the schema fields', () => {
    const markdown = routeReference(sections)
    expect(markdown).toContain('| `/sign-in/email` | POST | `signInEmail` | anyone | `email`: string<br>`password`: string')
    expect(markdown).toContain('| `/get-session` | GET | `getSession` |')
    expect(markdown).toMatch(/\| — \| — \| `setPassword` \| server `api` only \|/)
    expect(markdown).toContain('| `/organization/create` | POST | `createOrganization` |')
    const routed = Object.values(coreEndpoints).filter((endpoint) => !endpoint.serverOnly).length
    const coreRows = markdown.split('## @gatehouse/organization')[0]?.split('\n').filter((line) => line.startsWith('| `/')) ?? []
    expect(coreRows).toHaveLength(routed)
  })
})

/**
 * @module
 * The example's Gatehouse: email and password, verification mail at
 * sign-up (not required to sign in, signing in on verification), change-email
 * and delete-user with their mails, social sign-in with every provider whose
 * variables are set (config.ts), account linking, and the organization
 * plugin with teams and invitation mails, and billing webhooks at
 * `/api/auth/polar/webhooks`, and an OpenID Provider (discovery at
 * `/api/auth/.well-known/openid-configuration`; the app's `/login` and
 * `/consent` pages; clients registered by signed-in users; PKCE S256), and
 * the admin plugin (admins from ADMIN_EMAILS once verified: admins.ts), on the
 * embedded SQLite database, and magic-link sign-in, and two-factor (TOTP, emailed codes, backup codes),
 * and enterprise single sign-on (organizations bring their own OpenID Connect or SAML identity provider:
 * the app's organization settings and "Sign in with SSO"; docs/sso.md), and SCIM 2.0 directory sync
 * (a directory such as Okta or Entra ID manages an organization's members and teams; docs/scim.md), and API keys
 * (docs/api-key.md), session JWTs for other services (docs/jwt.md), one-time tokens that hand a session to another
 * origin, and with BEARER=1 bearer session tokens for clients without cookies (docs/sessions.md).
 * Every mail goes to the outbox (mailer.ts); every
 * applied billing event to WEBHOOK_LOG.
 */
import { randomBytes } from 'node:crypto'
import { admin } from '@gatehouse/admin'
import { apiKey } from '@gatehouse/api-key'
import { billing } from '@gatehouse/billing'
import { createAuth, type Store } from '@gatehouse/core'
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
import { adminEmailHooks } from './admins.js'
import { usageCatalogue } from './billing-config.js'
import type { ServerConfig } from './config.js'
import { sqliteStores, type ExampleStores } from './database.js'
import type { JsonLines } from './json-lines.js'
import type { Mailer } from './mailer.js'

/**
 * A guest's organization memberships become the account's (docs/anonymous.md#linking): each membership moves,
 * except where the account is already a member of that organization (then the guest's membership simply goes
 * with the guest). Runs in the transaction that deletes the guest.
 */
async function moveMemberships(db: Store, guestId: string, memberId: string): Promise<void> {
  const memberships = await db.findMany<{ id: string; organizationId: string }>({ model: 'member', where: { field: 'userId', value: guestId } })
  for (const membership of memberships) {
    const already = await db.findOne({
      model: 'member',
      where: [
        { field: 'organizationId', value: membership.organizationId },
        { field: 'userId', value: memberId },
      ],
    })
    if (!already) await db.update({ model: 'member', where: { field: 'id', value: membership.id }, update: { userId: memberId } })
  }
}

/**
 * @example
 * const auth = createExampleAuth(readConfig(process.env), createMailer({ logFile: undefined, print: console.log }))
 * await runMigrations(auth)
 */
export function createExampleAuth(config: ServerConfig, mailer: Mailer, webhookLog?: JsonLines, stores: ExampleStores = sqliteStores(config)) {
  const auth = createAuth({
    appName: 'Gatehouse example',
    baseURL: config.baseURL,
    basePath: '/api/auth',
    secret: config.secret,
    production: config.production,
    // SQLite by default; PostgreSQL/MySQL and Redis from DATABASE_URL and REDIS_URL (database.ts, docs/deployment.md).
    database: stores.database,
    secondaryStorage: stores.secondaryStorage,
    trustedOrigins: config.trustedOrigins,
    rateLimit: { enabled: config.rateLimit, storage: stores.rateLimitStorage },
    // toNodeHandler appends the socket peer to X-Forwarded-For as one more hop, so N proxies make N + 1
    // trusted entries; with none, the client is the peer (docs/rate-limits.md#behind-a-reverse-proxy).
    advanced: { ipAddress: { trustedProxyCount: config.trustProxy + 1 } },
    session: { cookieCache: { enabled: config.cookieCache, maxAge: config.cookieCacheMaxAge ?? 300 } },
    // BEARER=1: mobile apps and scripts send the session token as `Authorization: Bearer` (set-auth-token hands it out).
    bearer: config.bearer,
    // GET /api/auth/one-time-token/generate, POST /api/auth/one-time-token/verify: a session handed to another
    // origin once (that origin must be in TRUSTED_ORIGINS: verify is a POST under the origin check).
    oneTimeToken: true,
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      requireEmailVerification: false,
      sendResetPassword: ({ user, url, token }) =>
        mailer.send({ type: 'reset-password', to: user.email, subject: 'Reset your password', url, token }),
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      sendVerificationEmail: ({ user, url, token }) =>
        // For a change of an unverified address, `user.email` is already the new one: the link goes there.
        mailer.send({ type: 'verify-email', to: user.email, subject: 'Verify your email address', url, token }),
    },
    user: {
      changeEmail: {
        enabled: true,
        sendChangeEmailVerification: ({ user, newEmail, url, token }) =>
          mailer.send({ type: 'change-email', to: user.email, subject: `Approve the change of your email to ${newEmail}`, url, token }),
      },
      deleteUser: {
        enabled: true,
        sendDeleteAccountVerification: ({ user, url, token }) =>
          mailer.send({ type: 'delete-account', to: user.email, subject: 'Confirm the deletion of your account', url, token }),
      },
    },
    // Each provider whose variables are set (config.ts); callbacks at {BASE_URL}/api/auth/callback/{id}.
    socialProviders: config.socialProviders,
    account: { accountLinking: { enabled: true } },
    // ADMIN_EMAILS: verified users with these addresses become admins (admins.ts).
    databaseHooks: adminEmailHooks(config.adminEmails, async (): Promise<Store> => (await auth.$context).db),
    plugins: [
      organization({
        teams: { enabled: true },
        sendInvitationEmail: ({ id, email, organization: org, inviter }) =>
          mailer.send({
            type: 'invitation',
            to: email,
            subject: `${inviter.user.name} invited you to ${org.name}`,
            url: `${config.baseURL}/accept-invitation/${encodeURIComponent(id)}`,
            invitationId: id,
          }),
      }),
      billing({
        webhooks: {
          // Without BILLING_WEBHOOK_SECRET, a random secret nobody knows: every delivery is refused (403), the reading routes still work.
          secret: config.billingWebhookSecret ?? `whsec_${randomBytes(32).toString('base64')}`,
          // Runs once per applied event, after the mirror commits: a redelivery or a refused event never gets here.
          onPayload: async (event, { webhookId, replayed }) => {
            if (!replayed) await webhookLog?.append({ id: webhookId, type: event.type })
          },
        },
        // Outbound calls (checkout, portal, usage, customers on sign-up) only with POLAR_ACCESS_TOKEN.
        ...(config.billingPlatform
          ? {
              platform: {
                accessToken: config.billingPlatform.accessToken,
                server: config.billingPlatform.server,
                ...(config.billingPlatform.serverURL ? { serverURL: config.billingPlatform.serverURL } : {}),
              },
              createCustomerOnSignUp: true,
              checkout: {
                products: config.billingPlatform.products,
                successUrl: config.billingPlatform.successUrl ?? `${config.baseURL}/?checkout=success`,
              },
              // POLAR_USAGE_EVENTS opens POST /usage/ingest to these events only; without it the route does not exist.
              ...(config.billingPlatform.usageEvents.length > 0 ? { usage: { events: usageCatalogue(config.billingPlatform.usageEvents) } } : {}),
            }
          : {}),
      }),
      oidcProvider({
        // Pages of the React app: /login resumes the authorization after sign-in, /consent asks the user.
        loginPage: `${config.baseURL}/login`,
        consentPage: `${config.baseURL}/consent`,
        // Registration needs a signed-in user (the default). PKCE with S256 only: required of public clients, and
        // of a confidential client once it sends a challenge; a confidential client's secret by Basic or body
        // (the defaults, docs/oidc-provider.md#pkce).
        allowDynamicClientRegistration: false,
        allowPlainCodeChallengeMethod: false,
      }),
      // /api/auth/admin/*: users, bans, impersonation (docs/admin.md); admins come from ADMIN_EMAILS.
      admin(),
      // POST /api/auth/sign-in/magic-link mails a sign-in link (MAIL_LOG type "magic-link"); new addresses sign up.
      magicLink({
        sendMagicLink: ({ email, url, token }) => mailer.send({ type: 'magic-link', to: email, subject: 'Your sign-in link', url, token }),
      }),
      // /api/auth/two-factor/*: TOTP, backup codes, trusted devices (docs/two-factor.md); emailed codes go out as
      // MAIL_LOG type "two-factor" with the code in `otp` and the app's /two-factor page as `url`. A lockout (someone
      // with the password guessing codes) is told to the owner as type "two-factor-lockout", pointing to a password reset.
      twoFactor({
        otpOptions: {
          sendOTP: ({ user, otp }) =>
            mailer.send({ type: 'two-factor', to: user.email, subject: 'Your sign-in code', url: `${config.baseURL}/two-factor`, otp }),
        },
        onLockout: ({ user, factor, until }) =>
          mailer.send({
            type: 'two-factor-lockout',
            to: user.email,
            subject: 'Too many wrong sign-in codes: if this was not you, change your password',
            url: `${config.baseURL}/forgot-password`,
            factor,
            until: until.toISOString(),
          }),
      }),
      // /api/auth/passkey/*: register, list, rename, delete passkeys and sign in with one (docs/passkeys.md).
      passkey({ rpID: new URL(config.baseURL).hostname, rpName: 'Gatehouse example', origin: new URL(config.baseURL).origin }),
      // /api/auth/sso/* and /api/auth/sign-in/sso: each organization's own IdPs, managed by its owners and admins
      // (docs/sso.md). The server fetches an IdP's discovery, keys and token endpoint only over https to public
      // addresses, except the exact origins of TRUSTED_ORIGINS: an IdP on this machine (a test's) is named there.
      // An unverified domain routes nobody by email and signs in or links no existing user; it may create new users
      // (email unverified), so an organization can try its IdP by its slug before publishing the DNS record. A
      // provider asking for Gatehouse's second factor sends two-factor users to the app's /two-factor page.
      sso({ domainVerification: { required: false }, twoFactorPage: '/two-factor' }),
      // /api/auth/scim/v2/*: SCIM 2.0 for directories (Okta, Entra ID), each calling with a bearer token an owner or
      // admin generated in the app's organization settings (/api/auth/scim/generate-token); the token reaches that
      // organization only. Users are its members, groups its teams; `active: false` suspends the member and ends their
      // sessions in the same request (docs/scim.md).
      scim(),
      // /api/auth/api-key/*: keys for scripts (header x-api-key), shown once, stored hashed; a key runs as its user but never
      // changes credentials; organization keys for owners and admins (docs/api-key.md). The app's Security page manages them.
      apiKey(),
      // GET /api/auth/token and get-session's set-auth-jwt: 15-minute EdDSA JWTs other services verify with
      // /api/auth/jwks alone, the key set the OpenID Provider shares (docs/jwt.md).
      jwt(),
      // Usernames beside addresses: sign-up and the profile take `username`, POST /api/auth/sign-in/username signs in with
      // it and the password, POST /api/auth/is-username-available answers the sign-up form (docs/username.md).
      username(),
      // Six-digit codes by mail (MAIL_LOG type `email-otp`, fields `otp` and `otpType`): sign in or sign up with
      // POST /api/auth/sign-in/email-otp, verify the address, reset the password, change the address (docs/email-otp.md).
      emailOTP({
        sendVerificationOTP: ({ email, otp, type }) =>
          mailer.send({ type: 'email-otp', to: email, subject: `Your code: ${otp}`, url: `${config.baseURL}/sign-in`, otp, otpType: type }),
        changeEmail: { enabled: true },
      }),
      // Phone numbers proven by SMS (SMS_LOG lines {"to","code","type"}): POST /api/auth/phone-number/send-otp, then
      // /phone-number/verify signs the number's account in, signs a new number up (a placeholder address), or adds the
      // number to the signed-in account (updatePhoneNumber); /sign-in/phone-number takes the password; resets by SMS (docs/phone-number.md).
      phoneNumber({
        sendOTP: ({ phoneNumber: to, code }) => mailer.text({ to, code, type: 'verification' }),
        sendPasswordResetOTP: ({ phoneNumber: to, code }) => mailer.text({ to, code, type: 'password-reset' }),
        signUpOnVerification: { getTempEmail: (number) => `${number.slice(1)}@phone.invalid`, getTempName: (number) => number },
      }),
      // After each sign-in the readable cookie better-auth.last_used_login_method names the way in (email, username,
      // email-otp, phone-number, passkey, github, ...), and the user's lastLoginMethod field keeps it (docs/last-login-method.md).
      lastLoginMethod({ storeInDatabase: true }),
      // "Continue as guest": POST /api/auth/sign-in/anonymous makes a guest user and session. When the guest signs up or
      // in, the organizations it created move to the account in the same transaction that deletes the guest; guests
      // older than 30 days go with auth.api.cleanup() (docs/anonymous.md).
      anonymous({ onLinkAccount: ({ anonymousUser, newUser, db }) => moveMemberships(db, anonymousUser.user.id, newUser.user.id) }),
      // MULTI_SESSION=1: up to 5 accounts signed in at once in one browser; /api/auth/multi-session/* lists, switches
      // and signs out one; /sign-out ends them all (docs/multi-session.md). The app shows an account switcher.
      ...(config.multiSession ? ([multiSession()] as const) : ([] as const)),
    ],
  })
  return auth
}

export type ExampleAuth = ReturnType<typeof createExampleAuth>


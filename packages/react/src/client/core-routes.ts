/**
 * @module
 * Core's routes as the client calls them (docs/reference/routes.md), named the way users
 * expect. Not listed: set-password (server only), the HTML error page, the
 * liveness route, GET /reset-password/{token}, which only redirects the
 * link in a reset mail, and the social callbacks, which the provider sends
 * the browser to. A test compares this table with the server's
 * endpoints, so a renamed path or method cannot slip by.
 */
import * as z from 'zod/mini'
import type { RouteTable } from './route.js'
import {
  isoDate,
  linkedAccountShape,
  sessionShape,
  sessionWithUserShape,
  statusShape,
  successMessageShape,
  userShape,
} from './shapes.js'

/** After these the signed-in user, or whether there is one, may have changed. */
const SESSION = ['session'] as const

export const coreRoutes = {
  signUp: {
    email: {
      endpoint: 'signUpEmail',
      method: 'POST',
      path: '/sign-up/email',
      output: z.looseObject({ token: z.nullable(z.string()), user: userShape }),
      signals: SESSION,
      userFields: 'create',
    },
  },
  signIn: {
    email: {
      endpoint: 'signInEmail',
      method: 'POST',
      path: '/sign-in/email',
      // Or `{ twoFactorRedirect: true }` and no session yet, when a second factor holds the sign-in (docs/two-factor.md#signing-in).
      output: z.union([
        z.looseObject({ redirect: z.boolean(), token: z.string(), url: z.optional(z.string()), user: userShape }),
        z.looseObject({ twoFactorRedirect: z.literal(true) }),
      ]),
      signals: SESSION,
      challengeable: true,
    },
    // `{ url, redirect }` to start at the provider, or `{ redirect: false, token, url, user }` for an ID Token.
    social: {
      endpoint: 'signInSocial',
      method: 'POST',
      path: '/sign-in/social',
      output: z.looseObject({
        redirect: z.boolean(),
        url: z.optional(z.string()),
        token: z.optional(z.string()),
        user: z.optional(userShape),
      }),
      signals: SESSION,
      followsRedirect: true,
    },
  },
  signOut: {
    endpoint: 'signOut',
    method: 'POST',
    path: '/sign-out',
    output: z.looseObject({ success: z.boolean() }),
    signals: SESSION,
  },
  getSession: { endpoint: 'getSession', method: 'GET', path: '/get-session', output: sessionWithUserShape },
  listSessions: { endpoint: 'listSessions', method: 'GET', path: '/list-sessions', output: z.array(sessionShape) },
  // The token may be the caller's own: the session may be gone afterwards.
  revokeSession: { endpoint: 'revokeSession', method: 'POST', path: '/revoke-session', output: statusShape, signals: SESSION },
  revokeSessions: { endpoint: 'revokeSessions', method: 'POST', path: '/revoke-sessions', output: statusShape, signals: SESSION },
  revokeOtherSessions: { endpoint: 'revokeOtherSessions', method: 'POST', path: '/revoke-other-sessions', output: statusShape },
  updateUser: {
    endpoint: 'updateUser',
    method: 'POST',
    path: '/update-user',
    output: statusShape,
    signals: SESSION,
    userFields: 'update',
  },
  changeEmail: { endpoint: 'changeEmail', method: 'POST', path: '/change-email', output: statusShape, signals: SESSION },
  // With revokeOtherSessions the caller gets a new session cookie.
  changePassword: {
    endpoint: 'changePassword',
    method: 'POST',
    path: '/change-password',
    output: z.looseObject({ token: z.nullable(z.string()), user: userShape }),
    signals: SESSION,
  },
  deleteUser: { endpoint: 'deleteUser', method: 'POST', path: '/delete-user', output: successMessageShape, signals: SESSION },
  deleteUserCallback: {
    endpoint: 'deleteUserCallback',
    method: 'GET',
    path: '/delete-user/callback',
    output: successMessageShape,
    signals: SESSION,
  },
  listAccounts: { endpoint: 'listAccounts', method: 'GET', path: '/list-accounts', output: z.array(linkedAccountShape) },
  unlinkAccount: { endpoint: 'unlinkAccount', method: 'POST', path: '/unlink-account', output: statusShape },
  // With an ID Token the account is linked at once (`status: true`); otherwise the browser goes to the provider.
  linkSocial: {
    endpoint: 'linkSocial',
    method: 'POST',
    path: '/link-social',
    output: z.looseObject({ url: z.string(), redirect: z.boolean(), status: z.optional(z.boolean()) }),
    followsRedirect: true,
  },
  getAccessToken: {
    endpoint: 'getAccessToken',
    method: 'POST',
    path: '/get-access-token',
    output: z.looseObject({
      accessToken: z.string(),
      accessTokenExpiresAt: z.nullable(isoDate),
      scopes: z.array(z.string()),
      idToken: z.nullable(z.string()),
    }),
  },
  refreshToken: {
    endpoint: 'refreshToken',
    method: 'POST',
    path: '/refresh-token',
    output: z.looseObject({
      tokenType: z.nullable(z.string()),
      idToken: z.nullable(z.string()),
      accessToken: z.nullable(z.string()),
      refreshToken: z.nullable(z.string()),
      accessTokenExpiresAt: z.nullable(isoDate),
      refreshTokenExpiresAt: z.nullable(isoDate),
    }),
  },
  accountInfo: {
    endpoint: 'accountInfo',
    method: 'POST',
    path: '/account-info',
    output: z.looseObject({
      user: z.looseObject({
        id: z.string(),
        name: z.string(),
        email: z.nullable(z.string()),
        image: z.nullable(z.string()),
        emailVerified: z.boolean(),
      }),
      data: z.record(z.string(), z.unknown()),
    }),
  },
  sendVerificationEmail: {
    endpoint: 'sendVerificationEmail',
    method: 'POST',
    path: '/send-verification-email',
    output: statusShape,
  },
  // verify-email makes the session refresh (and may sign in): docs/accounts.md#email-verification.
  verifyEmail: {
    endpoint: 'verifyEmail',
    method: 'GET',
    path: '/verify-email',
    output: z.looseObject({ status: z.boolean(), user: userShape }),
    signals: SESSION,
  },
  requestPasswordReset: {
    endpoint: 'requestPasswordReset',
    method: 'POST',
    path: '/request-password-reset',
    output: z.looseObject({ status: z.boolean(), message: z.string() }),
  },
  forgetPassword: {
    endpoint: 'forgetPassword',
    method: 'POST',
    path: '/forget-password',
    output: z.looseObject({ status: z.boolean(), message: z.string() }),
  },
  // May revoke every session of the user (revokeSessionsOnPasswordReset).
  resetPassword: { endpoint: 'resetPassword', method: 'POST', path: '/reset-password', output: statusShape, signals: SESSION },
  // With the server's `oneTimeToken` option (docs/sessions.md#one-time-tokens): hand this session to another origin,
  // whose verify signs that browser into it.
  oneTimeToken: {
    generate: { endpoint: 'generateOneTimeToken', method: 'GET', path: '/one-time-token/generate', output: z.looseObject({ token: z.string() }) },
    verify: { endpoint: 'verifyOneTimeToken', method: 'POST', path: '/one-time-token/verify', output: sessionWithUserShape, signals: SESSION },
  },
} as const satisfies RouteTable

export type CoreRoutes = typeof coreRoutes

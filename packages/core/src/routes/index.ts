/**
 * @module
 * Core's endpoint map: the name is the `auth.api` method, the endpoint's
 * path the wire route.
 */
import { getSession } from './session/get-session.js'
import { listSessions } from './session/list-sessions.js'
import { revokeSession } from './session/revoke-session.js'
import { revokeOtherSessions, revokeSessions } from './session/revoke-sessions.js'
import { signOut } from './session/sign-out.js'
import { signInEmail } from './sign-in/sign-in-email.js'
import { signUpEmail } from './sign-in/sign-up-email.js'
import { errorPage } from './system/error-page.js'
import { ok } from './system/ok.js'

export const coreEndpoints = {
  signUpEmail,
  signInEmail,
  signOut,
  getSession,
  listSessions,
  revokeSession,
  revokeSessions,
  revokeOtherSessions,
  ok,
  error: errorPage,
} as const

export type CoreEndpoints = typeof coreEndpoints

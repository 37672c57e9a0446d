/**
 * @module
 * Core's endpoint map: the name is the `auth.api` method, the endpoint's
 * path the wire route.
 */
import { cleanup } from '../cleanup/cleanup-endpoint.js'
import { getSession } from './session/get-session.js'
import { listSessions } from './session/list-sessions.js'
import { revokeSession } from './session/revoke-session.js'
import { revokeOtherSessions, revokeSessions } from './session/revoke-sessions.js'
import { signOut } from './session/sign-out.js'
import { signInEmail } from './sign-in/sign-in-email.js'
import { signUpEmail } from './sign-in/sign-up-email.js'
import { errorPage } from './system/error-page.js'
import { ok } from './system/ok.js'
import { changeEmail } from './user/change-email.js'
import { deleteUser } from './user/delete-user.js'
import { deleteUserCallback } from './user/delete-user-callback.js'
import { updateUser } from './user/update-user.js'
import { listAccounts } from './account/list-accounts.js'
import { unlinkAccount } from './account/unlink-account.js'
import { sendVerificationEmail } from './email/send-verification-email.js'
import { verifyEmail } from './email/verify-email.js'
import { verifyEmailPost } from './email/verify-email-post.js'
import { changePassword } from './password/change-password.js'
import { forgetPassword, requestPasswordReset } from './password/request-password-reset.js'
import { resetPassword } from './password/reset-password.js'
import { resetPasswordCallback } from './password/reset-password-callback.js'
import { setPassword } from './password/set-password.js'
import { accountInfo } from './social/account-info.js'
import { callbackOAuth } from './social/callback.js'
import { callbackOAuthPost } from './social/callback-post.js'
import { getAccessToken } from './social/get-access-token.js'
import { linkSocial } from './social/link-social.js'
import { refreshToken } from './social/refresh-token.js'
import { signInSocial } from './social/sign-in-social.js'
import { generateOneTimeToken } from './one-time-token/generate.js'
import { verifyOneTimeToken } from './one-time-token/verify.js'

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
  updateUser,
  changeEmail,
  deleteUser,
  deleteUserCallback,
  listAccounts,
  unlinkAccount,
  sendVerificationEmail,
  verifyEmail,
  verifyEmailPost,
  requestPasswordReset,
  forgetPassword,
  resetPasswordCallback,
  resetPassword,
  changePassword,
  setPassword,
  signInSocial,
  callbackOAuth,
  callbackOAuthPost,
  linkSocial,
  getAccessToken,
  refreshToken,
  accountInfo,
  generateOneTimeToken,
  verifyOneTimeToken,
  cleanup,
} as const

export type CoreEndpoints = typeof coreEndpoints

/**
 * @module
 * The admin plugin's error catalogue (docs/admin.md#errors). No session is
 * core's 401 "Unauthorized"; a missing permission is 403 with a message
 * naming the action; a target user or session that does not exist is 404,
 * like core's "User not found"; refusing to ban or remove yourself is 400.
 */
import { defineErrors } from '@gatehouse/core'

/**
 * @example
 * throw new AuthError(AdminErrors.YOU_CANNOT_BAN_YOURSELF) // 400 "You cannot ban yourself"
 */
export const AdminErrors = defineErrors({
  USER_NOT_FOUND: { status: 404, message: 'User not found' },
  SESSION_NOT_FOUND: { status: 404, message: 'Session not found' },
  BANNED_USER: { status: 403, message: 'You have been banned from this application' },

  // A permission the caller's roles do not grant
  YOU_ARE_NOT_ALLOWED_TO_CREATE_USERS: { status: 403, message: 'You are not allowed to create users' },
  YOU_ARE_NOT_ALLOWED_TO_LIST_USERS: { status: 403, message: 'You are not allowed to list users' },
  YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE: { status: 403, message: "You are not allowed to change users' role" },
  YOU_ARE_NOT_ALLOWED_TO_BAN_USERS: { status: 403, message: 'You are not allowed to ban users' },
  YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS: { status: 403, message: 'You are not allowed to impersonate users' },
  YOU_ARE_NOT_ALLOWED_TO_DELETE_USERS: { status: 403, message: 'You are not allowed to delete users' },
  YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PASSWORD: { status: 403, message: "You are not allowed to set users' password" },
  YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS: { status: 403, message: "You are not allowed to list users' sessions" },
  YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS: { status: 403, message: "You are not allowed to revoke users' sessions" },

  // Limits on whom an allowed caller may act on
  YOU_ARE_NOT_ALLOWED_TO_MANAGE_THIS_USER: { status: 403, message: 'You are not allowed to manage a user with more permissions than you' },
  YOU_ARE_NOT_ALLOWED_TO_GRANT_THIS_ROLE: { status: 403, message: 'You are not allowed to grant this role' },
  YOU_CANNOT_IMPERSONATE_ADMINS: { status: 403, message: 'You cannot impersonate admins' },
  YOU_CANNOT_BAN_YOURSELF: { status: 400, message: 'You cannot ban yourself' },
  YOU_CANNOT_REMOVE_YOURSELF: { status: 400, message: 'You cannot remove yourself' },
  ROLE_NOT_FOUND: { status: 400, message: 'Role not found' },

  // Impersonation
  ALREADY_IMPERSONATING: { status: 400, message: 'You are already impersonating a user' },
  NOT_IMPERSONATING: { status: 400, message: 'You are not impersonating anyone' },
})

export type AdminErrorCode = keyof typeof AdminErrors

/**
 * @module
 * The plugin's endpoint map: the key is the `auth.api` method, each
 * endpoint's path the wire route under `/admin/...` (docs/reference/routes.md).
 */
import type { ResolvedAdminOptions } from '../options.js'
import { banUser } from './ban-user.js'
import { createUser } from './create-user.js'
import { hasPermission } from './has-permission.js'
import { impersonateUser } from './impersonate-user.js'
import { listUserSessions } from './list-user-sessions.js'
import { listUsers } from './list-users.js'
import { removeUser } from './remove-user.js'
import { revokeUserSession } from './revoke-user-session.js'
import { revokeUserSessions } from './revoke-user-sessions.js'
import { setRole } from './set-role.js'
import { setUserPassword } from './set-user-password.js'
import { stopImpersonating } from './stop-impersonating.js'
import { unbanUser } from './unban-user.js'

export function adminEndpoints(options: ResolvedAdminOptions) {
  return {
    createUser: createUser(options),
    listUsers: listUsers(options),
    setRole: setRole(options),
    banUser: banUser(options),
    unbanUser: unbanUser(options),
    impersonateUser: impersonateUser(options),
    stopImpersonating: stopImpersonating(options),
    listUserSessions: listUserSessions(options),
    revokeUserSession: revokeUserSession(options),
    revokeUserSessions: revokeUserSessions(options),
    removeUser: removeUser(options),
    setUserPassword: setUserPassword(options),
    userHasPermission: hasPermission(options),
  } as const
}

/**
 * @module
 * The admin routes as the client calls them: `client.admin.<name>`, each
 * name the last segment of its path in camel case. `signals` name what to
 * reload after a success: impersonating and stopping change who is signed
 * in, so the session (and every store that follows it) reloads. A test
 * compares the table with the server's endpoints.
 */
import * as z from 'zod/mini'
import type { RouteTable } from '@gatehouse/react'
import { adminSessionShape, adminUserShape, sessionReplyShape, userReplyShape } from './shapes.js'

const post = 'POST' as const
const get = 'GET' as const
const success = z.looseObject({ success: z.boolean() })

export const adminRoutes = {
  admin: {
    createUser: { endpoint: 'createUser', method: post, path: '/admin/create-user', output: userReplyShape },
    listUsers: {
      endpoint: 'listUsers',
      method: get,
      path: '/admin/list-users',
      output: z.looseObject({ users: z.array(adminUserShape), total: z.number(), limit: z.number(), offset: z.number() }),
    },
    setRole: { endpoint: 'setRole', method: post, path: '/admin/set-role', output: userReplyShape },
    banUser: { endpoint: 'banUser', method: post, path: '/admin/ban-user', output: userReplyShape },
    unbanUser: { endpoint: 'unbanUser', method: post, path: '/admin/unban-user', output: userReplyShape },
    impersonateUser: {
      endpoint: 'impersonateUser',
      method: post,
      path: '/admin/impersonate-user',
      output: sessionReplyShape,
      signals: ['session'],
    },
    stopImpersonating: {
      endpoint: 'stopImpersonating',
      method: post,
      path: '/admin/stop-impersonating',
      output: sessionReplyShape,
      signals: ['session'],
    },
    listUserSessions: {
      endpoint: 'listUserSessions',
      method: post,
      path: '/admin/list-user-sessions',
      output: z.looseObject({ sessions: z.array(adminSessionShape) }),
    },
    revokeUserSession: { endpoint: 'revokeUserSession', method: post, path: '/admin/revoke-user-session', output: success },
    revokeUserSessions: {
      endpoint: 'revokeUserSessions',
      method: post,
      path: '/admin/revoke-user-sessions',
      output: z.looseObject({ success: z.boolean(), revoked: z.number() }),
    },
    removeUser: { endpoint: 'removeUser', method: post, path: '/admin/remove-user', output: success },
    setUserPassword: {
      endpoint: 'setUserPassword',
      method: post,
      path: '/admin/set-user-password',
      output: z.looseObject({ status: z.boolean() }),
    },
    hasPermission: { endpoint: 'userHasPermission', method: post, path: '/admin/has-permission', output: success },
  },
} as const satisfies RouteTable

export type AdminRoutes = typeof adminRoutes

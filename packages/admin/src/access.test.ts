import { describe, expect, it } from 'vitest'
import { adminAc, adminStatements, defaultAdminRoles, hasPermission } from './access.js'
import { resolveAdminOptions } from './options.js'

describe('default admin roles', () => {
  const can = (role: string, permissions: Record<string, string[]>) => hasPermission({ roles: defaultAdminRoles, role, permissions })

  it('admin may do every user and session action; user none', () => {
    for (const [resource, actions] of Object.entries(adminStatements)) {
      for (const action of actions) {
        expect(can('admin', { [resource]: [action] }), `${resource}.${action}`).toBe(true)
        expect(can('user', { [resource]: [action] }), `${resource}.${action}`).toBe(false)
      }
    }
    expect(adminStatements).toEqual({
      user: ['create', 'list', 'set-role', 'ban', 'impersonate', 'delete', 'set-password'],
      session: ['list', 'revoke', 'delete'],
    })
  })

  it('roles are checked against the statements when made', () => {
    expect(() => adminAc.newRole({ user: ['fly' as 'list'] })).toThrow('Unknown action "user.fly"')
  })
})

describe('resolveAdminOptions', () => {
  it('has the documented defaults', () => {
    const options = resolveAdminOptions()
    expect(options).toMatchObject({
      defaultRole: 'user',
      adminRoles: ['admin'],
      impersonationSessionDuration: 3600,
      allowImpersonatingAdmins: false,
      defaultBanReason: 'No reason',
      bannedUserMessage: 'You have been banned from this application',
    })
    expect([...options.adminUserIds]).toEqual([])
  })

  it('an admin role the application names but does not define grants the admin permissions', () => {
    const options = resolveAdminOptions({ adminRoles: ['admin', 'owner'] })
    expect(hasPermission({ roles: options.roles, role: 'owner', permissions: { user: ['ban'] } })).toBe(true)
  })

  it('refuses a duration that is not a positive whole number of seconds', () => {
    expect(() => resolveAdminOptions({ impersonationSessionDuration: 0 })).toThrow(/impersonationSessionDuration/)
    expect(() => resolveAdminOptions({ impersonationSessionDuration: 1.5 })).toThrow(/impersonationSessionDuration/)
  })
})

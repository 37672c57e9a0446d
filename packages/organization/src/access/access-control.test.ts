import { describe, expect, it } from 'vitest'
import { createAccessControl } from './access-control.js'
import { hasPermission, joinRoles, parseRoles } from './has-permission.js'
import { defaultRoles, defaultStatements } from './statements.js'

describe('createAccessControl', () => {
  const ac = createAccessControl({ project: ['create', 'share', 'archive'], billing: ['read'] })

  it('a role authorizes exactly what it grants', () => {
    const editor = ac.newRole({ project: ['create', 'share'] })
    expect(editor.authorize({ project: ['create'] })).toEqual({ success: true })
    expect(editor.authorize({ project: ['create', 'share'] })).toEqual({ success: true })
    expect(editor.authorize({ project: ['archive'] })).toEqual({ success: false, error: 'Not allowed: project.archive' })
    expect(editor.authorize({ billing: ['read'] })).toEqual({ success: false, error: 'Not allowed: billing.read' })
  })

  it('refuses actions and resources the statements do not list', () => {
    expect(() => ac.newRole({ project: ['delete' as 'create'] })).toThrow('Unknown action "project.delete"')
    expect(() => ac.newRole({ ['nope' as 'project']: ['create'] })).toThrow('Unknown resource "nope"')
  })
})

describe('default roles (owner, admin, member)', () => {
  const can = (role: string, permissions: Record<string, string[]>) => hasPermission({ roles: defaultRoles, role, permissions })

  it('owner may update and delete the organization; admin may only update it; member neither', () => {
    expect(can('owner', { organization: ['update', 'delete'] })).toBe(true)
    expect(can('admin', { organization: ['update'] })).toBe(true)
    expect(can('admin', { organization: ['delete'] })).toBe(false)
    expect(can('member', { organization: ['update'] })).toBe(false)
  })

  it('admin and owner manage members, teams, invitations and single sign-on providers; member does not', () => {
    for (const role of ['owner', 'admin']) {
      expect(can(role, { member: ['create', 'update', 'delete'], team: ['create', 'update', 'delete'], invitation: ['create', 'cancel'] })).toBe(true)
      expect(can(role, { sso: ['create', 'read', 'update', 'delete'] })).toBe(true)
      expect(can(role, { apiKey: ['create', 'read', 'update', 'delete'] })).toBe(true)
    }
    for (const [resource, actions] of Object.entries(defaultStatements)) {
      for (const action of actions) expect(can('member', { [resource]: [action] })).toBe(false)
    }
  })
})

describe('hasPermission', () => {
  const ac = createAccessControl({ report: ['read', 'write'], invoice: ['pay'] })
  const roles = { reader: ac.newRole({ report: ['read'] }), payer: ac.newRole({ invoice: ['pay'] }) }

  it('grants the union of several comma-joined roles, but not beyond it', () => {
    expect(hasPermission({ roles, role: 'reader,payer', permissions: { report: ['read'], invoice: ['pay'] } })).toBe(true)
    expect(hasPermission({ roles, role: 'reader, payer', permissions: { report: ['write'] } })).toBe(false)
    expect(hasPermission({ roles, role: 'reader', permissions: { report: ['read'], invoice: ['pay'] } })).toBe(false)
  })

  it('unknown role names grant nothing, including inherited object keys', () => {
    expect(hasPermission({ roles, role: 'ghost', permissions: { report: ['read'] } })).toBe(false)
    expect(hasPermission({ roles, role: 'toString,constructor', permissions: { report: ['read'] } })).toBe(false)
  })

  it('reads grants and statements by own keys only: inherited names are resources nobody holds', () => {
    for (const resource of ['constructor', 'toString', 'hasOwnProperty']) {
      expect(hasPermission({ roles, role: 'reader,payer', permissions: { [resource]: ['length'] } })).toBe(false)
      expect(() => ac.newRole({ [resource as 'report']: ['read'] })).toThrow(`Unknown resource "${resource}"`)
    }
  })

  it('parses and joins role lists', () => {
    expect(parseRoles(' admin, ,member,admin ')).toEqual(['admin', 'member'])
    expect(joinRoles(['owner', 'admin', 'owner'])).toBe('owner,admin')
  })
})

export { createAccessControl, createRole, missingActions } from './access-control.js'
export type { AccessControl, AuthorizeResult, Permissions, Role, Statements } from './access-control.js'
export { adminRole, defaultAc, defaultRoles, defaultStatements, memberRole, ownerRole } from './statements.js'
export { hasPermission, joinRoles, parseRoles } from './has-permission.js'

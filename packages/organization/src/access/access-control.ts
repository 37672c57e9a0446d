/**
 * @module
 * Access control as data: a statement lists, per resource, the actions that
 * exist; a role grants a subset of them. Both are plain objects checked when
 * they are made, so a misspelt action fails at start-up instead of silently
 * granting nothing (docs/organization.md#roles-and-permissions).
 */

/** Resources and the actions each one has: `{ organization: ['update', 'delete'] }`. */
export type Statements = Readonly<Record<string, readonly string[]>>

/** Some actions of some resources of `S`: what a role grants or a caller asks for. */
export type Permissions<S extends Statements = Statements> = {
  readonly [K in keyof S]?: readonly S[K][number][]
}

export type AuthorizeResult = { readonly success: true } | { readonly success: false; readonly error: string }

export interface Role<S extends Statements = Statements> {
  /** What the role grants. */
  readonly statements: Permissions<S>
  /** Whether the role alone grants every requested action. */
  authorize(request: Permissions<S>): AuthorizeResult
}

export interface AccessControl<S extends Statements = Statements> {
  readonly statements: S
  /** A role granting `permissions`; an action the statements do not list throws. */
  newRole(permissions: Permissions<S>): Role<S>
}

/**
 * @example
 * const ac = createAccessControl({ project: ['create', 'share'], ...defaultStatements })
 * const editor = ac.newRole({ project: ['create'], member: [] })
 * editor.authorize({ project: ['share'] }) // { success: false, error: 'Not allowed: project.share' }
 */
export function createAccessControl<const S extends Statements>(statements: S): AccessControl<S> {
  return {
    statements,
    newRole(permissions) {
      for (const [resource, actions] of Object.entries(permissions as Statements)) {
        const known = ownActions(statements, resource)
        if (!known) throw new Error(`Unknown resource "${resource}" in role`)
        for (const action of actions) {
          if (!known.includes(action)) throw new Error(`Unknown action "${resource}.${action}" in role`)
        }
      }
      return createRole<S>(permissions)
    },
  }
}

/**
 * A role over already-checked permissions (roles stored in the database are checked when written).
 *
 * @example
 * createRole({ team: ['update'] }).authorize({ team: ['update'] }) // { success: true }
 */
export function createRole<S extends Statements = Statements>(permissions: Permissions<S>): Role<S> {
  const granted = permissions as Statements
  return {
    statements: permissions,
    authorize(request) {
      const missing = missingActions([granted], request as Statements)
      return missing.length === 0 ? { success: true } : { success: false, error: `Not allowed: ${missing.join(', ')}` }
    },
  }
}

/**
 * The requested `resource.action` pairs none of `grants` contains. A
 * resource no grant lists is missing, whatever its name: `constructor` or
 * `toString` name no resource, not the methods every object inherits
 * (docs/organization.md#roles-and-permissions).
 *
 * @example
 * missingActions([{ team: ['update'] }], { team: ['update', 'delete'] }) // ['team.delete']
 */
export function missingActions(grants: readonly Statements[], request: Statements): string[] {
  const missing: string[] = []
  for (const [resource, actions] of Object.entries(request)) {
    for (const action of actions) {
      if (!grants.some((grant) => ownActions(grant, resource)?.includes(action))) missing.push(`${resource}.${action}`)
    }
  }
  return missing
}

/** The actions a map lists for `resource`, read by own keys only; undefined when it lists none. */
function ownActions(map: Statements, resource: string): readonly string[] | undefined {
  if (!Object.hasOwn(map, resource)) return undefined
  const actions = map[resource]
  return Array.isArray(actions) ? actions : undefined
}

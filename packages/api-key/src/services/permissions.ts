/**
 * @module
 * A key's permissions in the statement form of the organization plugin's
 * access control: `{ resource: ['action', ...] }` (docs/api-key.md#permissions).
 * Stored as JSON text; answered parsed.
 */

export type Statements = Readonly<Record<string, readonly string[]>>

/**
 * True when every action `wanted` names is among `granted`'s.
 *
 * @example
 * covers({ files: ['read', 'write'] }, { files: ['read'] }) // true
 * covers({ files: ['read'] }, { files: ['read'], users: ['list'] }) // false
 */
export function covers(granted: Statements | null, wanted: Statements): boolean {
  for (const [resource, actions] of Object.entries(wanted)) {
    const allowed = granted?.[resource]
    if (!allowed) return actions.length === 0
    for (const action of actions) if (!allowed.includes(action)) return false
  }
  return true
}

/** The stored text parsed, or null when absent or not a statement object. */
export function parseStatements(text: string | null): Statements | null {
  if (!text) return null
  try {
    const value: unknown = JSON.parse(text)
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return null
    const statements: Record<string, readonly string[]> = {}
    for (const [resource, actions] of Object.entries(value)) {
      if (!Array.isArray(actions) || !actions.every((action) => typeof action === 'string')) return null
      statements[resource] = actions
    }
    return statements
  } catch {
    return null
  }
}

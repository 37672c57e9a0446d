/**
 * @module
 * How the Drizzle schema module writes names (docs/adapters.md#the-schema-module):
 * identifiers bare, anything else quoted, so a model, field or table with a
 * name JavaScript cannot take as an identifier still works.
 */

export const IDENTIFIER = /^[A-Za-z_$][\w$]*$/

/** A property key: bare when it is an identifier, quoted otherwise. */
export function key(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name)
}

/** `table.field` or `table["field"]`. */
export function member(object: string, name: string): string {
  return IDENTIFIER.test(name) ? `${object}.${name}` : `${object}[${JSON.stringify(name)}]`
}

/** A single-quoted string literal. */
export function literal(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
}

/** A camelCase identifier for any name (`audit-entry` → `auditEntry`). */
export function camelCase(name: string): string {
  const words = name.split(/[^A-Za-z0-9_$]+/).filter((word) => word !== '')
  const joined = words.map((word, index) => (index === 0 ? word : word.charAt(0).toUpperCase() + word.slice(1))).join('')
  return /^[A-Za-z_$]/.test(joined) ? joined : `t${joined}`
}

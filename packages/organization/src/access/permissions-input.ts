/**
 * @module
 * The `permissions` of a has-permission request, `{ resource: [actions] }`,
 * as both has-permission routes read it (docs/organization.md#roles-and-permissions,
 * docs/admin.md#has-permission-reads-grants-by-own-keys-only). A request must
 * name at least one resource, and none called `__proto__`: a JavaScript object
 * cannot hold that key, so validation drops it, and `{"__proto__": ["x"]}`
 * used to reach the check as `{}`, which every role grants. A client gating
 * its interface on a permission named from input would have been told yes.
 * Both answer 400, checked on the request's own keys before validation.
 */
import { z } from 'zod'

const statements = z.record(z.string(), z.array(z.string()))

/** Whether the request's raw object names `__proto__` among its own keys (JSON.parse keeps it as one). */
function namesProto(raw: unknown): boolean {
  return typeof raw === 'object' && raw !== null && Object.hasOwn(raw, '__proto__')
}

/**
 * The zod schema of `permissions` (call it inside the route's `z.lazy`).
 *
 * @example
 * const body = z.lazy(() => z.object({ permissions: permissionsInput() }))
 */
export function permissionsInput() {
  return (
    z
      .custom<z.input<typeof statements>>((raw) => !namesProto(raw), { message: 'A resource cannot be named __proto__' })
      // What the input is, for JSON Schema (docs/reference/routes.md): the record's shape, which the raw check has none of.
      .meta({ type: 'object', propertyNames: { type: 'string' }, additionalProperties: { type: 'array', items: { type: 'string' } } })
      .pipe(statements.refine((value) => Object.keys(value).length > 0, { message: 'Name at least one resource' }))
  )
}

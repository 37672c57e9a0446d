/**
 * @module
 * `@gatehouse/custom-session/client`: the custom-session plugin needs no client
 * half at run time (docs/custom-session.md#client). Its fields arrive in the
 * get-session answer, and `createAuthClient<typeof auth>()` reads their type
 * from the server's plugins, so `useSession()` and `client.getSession()` carry
 * them. This module only names that type, for code that passes the session around.
 */
import type { CustomSessionFields, GatehouseOptions } from '@gatehouse/core'

/**
 * The fields a server's custom-session plugin adds.
 *
 * @example
 * import type { auth } from '../server/auth'
 * function PlanBadge({ plan }: { plan: CustomSessionFieldsOf<typeof auth>['plan'] }) { ... }
 */
export type CustomSessionFieldsOf<A extends { readonly options: GatehouseOptions }> = CustomSessionFields<A['options']>

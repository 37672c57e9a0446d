/**
 * @module
 * The user fields plugins take from request bodies (docs/plugins.md#user-fields-from-requests):
 * each plugin's `userInput` validates and normalises its own (the username
 * plugin's `username`), on sign-up and on update-user.
 */
import type { Row } from '../db/adapter.js'
import type { EndpointContext } from '../endpoint/context.js'
import type { User } from '../types/rows.js'

/**
 * The fields every plugin adds, merged in plugin order.
 *
 * @example
 * const fields = await pluginUserInput(ctx, body, null) // { username: 'ada', displayUsername: 'Ada' }
 */
export async function pluginUserInput(ctx: EndpointContext, body: Readonly<Record<string, unknown>>, user: User | null): Promise<Row> {
  let fields: Row = {}
  for (const plugin of ctx.auth.plugins) {
    if (plugin.userInput) fields = { ...fields, ...(await plugin.userInput(ctx, { body, user })) }
  }
  return fields
}

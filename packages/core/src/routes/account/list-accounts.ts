/**
 * @module
 * GET /list-accounts (docs/accounts.md#linked-accounts): the caller's linked accounts as
 * `{ id, provider, createdAt, updatedAt, accountId, scopes }`, oldest first.
 * `provider` is the account's providerId and `scopes` its comma-joined
 * `scope` split into a list (empty when none). The shape is built field by
 * field, so no password hash or provider token can reach the response.
 */
import type { Row } from '../../db/adapter.js'
import type { Account } from '../../accounts/users.js'
import { defineEndpoint } from '../../endpoint/define-endpoint.js'
import { sessionMiddleware } from '../../session/middleware.js'

/** One entry of the list-accounts answer. */
export interface LinkedAccount {
  readonly id: string
  readonly provider: string
  readonly createdAt: Date
  readonly updatedAt: Date
  readonly accountId: string
  readonly scopes: string[]
}

/**
 * @example
 * const accounts = await auth.api.listAccounts({ headers: request.headers })
 * accounts.map((account) => account.provider) // ['credential', 'github']
 */
export const listAccounts = defineEndpoint({
  method: 'GET',
  path: '/list-accounts',
  use: [sessionMiddleware],
  handler: async (ctx): Promise<LinkedAccount[]> => {
    const accounts = await ctx.db.findMany<Account & Row>({
      model: 'account',
      where: { field: 'userId', value: ctx.session.user.id },
      sortBy: { field: 'createdAt', direction: 'asc' },
    })
    return accounts.map((account) => ({
      id: account.id,
      provider: account.providerId,
      createdAt: account.createdAt,
      updatedAt: account.updatedAt,
      accountId: account.accountId,
      scopes: splitScopes(account.scope),
    }))
  },
})

/** The account row stores `scope` comma-joined (docs/core.md#tables). */
function splitScopes(scope: string | null): string[] {
  if (!scope) return []
  return scope
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0)
}

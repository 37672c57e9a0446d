/**
 * Fixtures for the guest flows: an auth with the plugin (and a record of
 * every link), and one browser whose cookies carry from call to call.
 */
import type { AdapterFactory, GatehousePlugin } from '@gatehouse/core'
import { accountAuth, browserAnswer, PASSWORD } from '../../core/test/accounts.js'
import { BASE, request } from '../../core/test/helpers.js'
import type { AnonymousOptions, LinkAccount } from '../src/options.js'
import { anonymous } from '../src/plugin.js'

export { BASE, PASSWORD }

export function guestAuth(options: { anonymous?: AnonymousOptions; database?: AdapterFactory; plugins?: readonly GatehousePlugin[]; rateLimit?: boolean } = {}) {
  const links: { guestId: string; memberId: string }[] = []
  const auth = accountAuth({
    ...(options.database ? { database: options.database } : {}),
    ...(options.rateLimit ? { rateLimit: { enabled: true } } : {}),
    plugins: [
      anonymous({
        onLinkAccount: async (link: LinkAccount) => {
          links.push({ guestId: link.anonymousUser.user.id, memberId: link.newUser.user.id })
          // The guest's "cart": a verification row keyed by the user, moved in the link's transaction.
          await link.db.updateMany({ model: 'verification', where: { field: 'identifier', value: `cart:${link.anonymousUser.user.id}` }, update: { identifier: `cart:${link.newUser.user.id}` } })
        },
        ...options.anonymous,
      }),
      ...(options.plugins ?? []),
    ],
  })
  return Object.assign(auth, { links })
}

export type GuestAuth = ReturnType<typeof guestAuth>

export function browser(auth: { handler(request: Request): Promise<Response> }, ip?: string) {
  let cookie = ''
  const call = async (path: string, json?: unknown, origin = BASE) => {
    const headers: Record<string, string> = { origin }
    if (cookie) headers.cookie = cookie
    if (ip) headers['x-forwarded-for'] = ip
    const answer = await browserAnswer(await auth.handler(request(`/api/auth${path}`, json === undefined ? { headers } : { json, headers })), cookie)
    cookie = answer.cookie
    return answer
  }
  return {
    call,
    get cookie() {
      return cookie
    },
    session: async () => (await call('/get-session')).body as { user: { id: string; email: string; isAnonymous?: boolean } } | null,
  }
}

/** Puts something in the guest's "cart". */
export async function fillCart(auth: GuestAuth, userId: string) {
  const { db } = await auth.$context
  await db.create({ model: 'verification', data: { identifier: `cart:${userId}`, value: 'three books', expiresAt: new Date(auth.clock.now().getTime() + 86_400_000) } })
}

export async function cartOf(auth: GuestAuth, userId: string) {
  const { db } = await auth.$context
  return db.findOne<{ value: string }>({ model: 'verification', where: { field: 'identifier', value: `cart:${userId}` } })
}

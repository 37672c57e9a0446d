/**
 * Pre-registration takeover and the credential revocation hook
 * (docs/security.md#pre-registration-whoever-proves-the-mailbox-owns-the-account,
 * docs/plugins.md#when-a-users-credentials-are-revoked): someone who signs up
 * with another person's address keeps nothing once the owner proves the
 * mailbox, and every route that ends a user's sessions for the account's
 * security tells the plugins, inside its transaction.
 */
import { describe, expect, it } from 'vitest'
import type { CredentialsRevoked, GatehousePlugin } from '../src/plugins/types.js'
import { accountAuth, authed, PASSWORD, signIn, signUp } from './accounts.js'
import { BASE, request } from './helpers.js'

type Auth = ReturnType<typeof accountAuth>

const NEW_PASSWORD = 'the owner’s own passphrase'

async function rows(auth: Auth, model: string) {
  return (await auth.$context).adapter.findMany({ model })
}

async function currentUser(auth: Auth, cookie: string) {
  const body = await (await auth.handler(authed('/api/auth/get-session?disableCookieCache=true', cookie))).json()
  return body?.user as { id: string; email: string; emailVerified: boolean } | undefined
}

async function resetByMail(auth: Auth, email: string, newPassword = NEW_PASSWORD) {
  await auth.handler(request('/api/auth/request-password-reset', { json: { email }, headers: { origin: BASE } }))
  const token = auth.mailbox.last('reset-password')?.token ?? ''
  return auth.handler(request('/api/auth/reset-password', { json: { newPassword, token }, headers: { origin: BASE } }))
}

/** A plugin that records every revocation it hears, and what the transaction showed it. */
function recorder(options: { fail?: boolean } = {}) {
  const heard: Array<{ userId: string; reason: string; sessionsSeen: number }> = []
  const plugin: GatehousePlugin = {
    id: 'recorder',
    async onCredentialsRevoked(event: CredentialsRevoked) {
      // Plugins run on the same transaction, after core's first sweep of the sessions.
      const sessions = await event.db.findMany({ model: 'session', where: { field: 'userId', value: event.userId } })
      heard.push({ userId: event.userId, reason: event.reason, sessionsSeen: sessions.length })
      if (options.fail) throw new Error('plugin refused')
    },
  }
  return { heard, plugin }
}

describe('pre-registration: whoever proves the mailbox owns the account', () => {
  it('a squatter’s session, made before the owner reset the password, is ended by the reset (default options)', async () => {
    const auth = accountAuth()
    const squatter = await signUp(auth, { email: 'victim@example.com', password: 'squatter password 1' })
    expect(squatter.response.status).toBe(200)
    expect(await currentUser(auth, squatter.cookie)).toMatchObject({ email: 'victim@example.com', emailVerified: false })

    expect((await resetByMail(auth, 'victim@example.com')).status).toBe(200)
    expect(await currentUser(auth, squatter.cookie)).toBeUndefined()
    expect(await rows(auth, 'session')).toEqual([])
    // The reset link reached the mailbox: the address is verified now, and only the owner's password works.
    const [user] = await rows(auth, 'user')
    expect(user).toMatchObject({ email: 'victim@example.com', emailVerified: true })
    expect((await signIn(auth, { email: 'victim@example.com', password: 'squatter password 1' })).response.status).toBe(401)
    expect((await signIn(auth, { email: 'victim@example.com', password: NEW_PASSWORD })).response.status).toBe(200)
  })

  it('revokeSessionsOnPasswordReset: false keeps sessions only of an address that was already verified', async () => {
    const auth = accountAuth({ emailAndPassword: { revokeSessionsOnPasswordReset: false } })
    const squatter = await signUp(auth, { email: 'victim@example.com' })
    expect((await resetByMail(auth, 'victim@example.com')).status).toBe(200)
    expect(await currentUser(auth, squatter.cookie)).toBeUndefined()

    const owner = await signIn(auth, { email: 'victim@example.com', password: NEW_PASSWORD })
    expect((await resetByMail(auth, 'victim@example.com', 'a third passphrase')).status).toBe(200)
    expect(await currentUser(auth, owner.cookie)).toMatchObject({ email: 'victim@example.com', emailVerified: true })
  })

  it('a provider account linked before the proof is unlinked by it', async () => {
    const auth = accountAuth()
    const squatter = await signUp(auth, { email: 'victim@example.com' })
    const context = await auth.$context
    // A sign-in method the registrant added while the address was unproven.
    await context.db.create({ model: 'account', data: { providerId: 'github', accountId: 'squatter-gh', userId: squatter.body.user.id } })
    expect((await resetByMail(auth, 'victim@example.com')).status).toBe(200)
    expect((await rows(auth, 'account')).map((row) => row.providerId)).toEqual(['credential'])
  })

  it('a verified user’s reset keeps their linked provider accounts', async () => {
    const auth = accountAuth()
    const owner = await signUp(auth, { email: 'owner@example.com' })
    const context = await auth.$context
    await context.db.update({ model: 'user', where: { field: 'id', value: owner.body.user.id }, update: { emailVerified: true } })
    await context.db.create({ model: 'account', data: { providerId: 'github', accountId: 'owner-gh', userId: owner.body.user.id } })
    expect((await resetByMail(auth, 'owner@example.com')).status).toBe(200)
    expect((await rows(auth, 'account')).map((row) => row.providerId).sort()).toEqual(['credential', 'github'])
  })
})

describe('onCredentialsRevoked: every security revocation tells the plugins', () => {
  it('password reset, change-password with revokeOtherSessions, revoke-sessions and delete-user, each with its reason', async () => {
    const { heard, plugin } = recorder()
    const auth = accountAuth({ plugins: [plugin], user: { deleteUser: { enabled: true } } })
    const ada = await signUp(auth, { email: 'ada@example.com' })
    const userId = ada.body.user.id as string
    await (await auth.$context).db.update({ model: 'user', where: { field: 'id', value: userId }, update: { emailVerified: true } })

    await resetByMail(auth, 'ada@example.com')
    let session = await signIn(auth, { email: 'ada@example.com', password: NEW_PASSWORD })
    await auth.handler(
      authed('/api/auth/change-password', session.cookie, { json: { currentPassword: NEW_PASSWORD, newPassword: PASSWORD, revokeOtherSessions: true } }),
    )
    session = await signIn(auth, { email: 'ada@example.com' })
    // Everywhere but here ends no grant: it is not a revocation of the account's credentials.
    await auth.handler(authed('/api/auth/revoke-other-sessions', session.cookie, { method: 'POST' }))
    await auth.handler(authed('/api/auth/revoke-sessions', session.cookie, { method: 'POST' }))
    session = await signIn(auth, { email: 'ada@example.com' })
    const deleted = await auth.handler(authed('/api/auth/delete-user', session.cookie, { json: { password: PASSWORD } }))
    expect(deleted.status).toBe(200)

    expect(heard).toEqual([
      { userId, reason: 'password-reset', sessionsSeen: 0 },
      { userId, reason: 'password-changed', sessionsSeen: 0 },
      { userId, reason: 'sessions-revoked', sessionsSeen: 0 },
      { userId, reason: 'user-deleted', sessionsSeen: 0 },
    ])
  })

  it('the first proof of the mailbox is told as email-proven, and the reset after it as password-reset', async () => {
    const { heard, plugin } = recorder()
    const auth = accountAuth({ plugins: [plugin] })
    const squatter = await signUp(auth, { email: 'victim@example.com' })
    await resetByMail(auth, 'victim@example.com')
    expect(heard.map((entry) => entry.reason)).toEqual(['email-proven', 'password-reset'])
    expect(heard[0]).toMatchObject({ userId: squatter.body.user.id, sessionsSeen: 0 })
  })

  it('a plugin that throws rolls the reset back: old password, sessions and reset link all intact', async () => {
    const { plugin } = recorder({ fail: true })
    const auth = accountAuth({ plugins: [plugin] })
    const ada = await signUp(auth, { email: 'ada@example.com' })
    await (await auth.$context).db.update({ model: 'user', where: { field: 'id', value: ada.body.user.id }, update: { emailVerified: true } })
    await auth.handler(request('/api/auth/request-password-reset', { json: { email: 'ada@example.com' }, headers: { origin: BASE } }))
    const token = auth.mailbox.last('reset-password')?.token ?? ''
    const failed = await auth.handler(request('/api/auth/reset-password', { json: { newPassword: NEW_PASSWORD, token }, headers: { origin: BASE } }))
    expect(failed.status).toBe(500)
    expect(await currentUser(auth, ada.cookie)).toMatchObject({ email: 'ada@example.com' })
    expect((await signIn(auth, { email: 'ada@example.com' })).response.status).toBe(200)
    expect((await rows(auth, 'verification')).some((row) => String(row.identifier).startsWith('reset-password:'))).toBe(true)
  })
})

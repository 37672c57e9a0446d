/**
 * The plugin on SQL backends: SQLite always, PostgreSQL and MariaDB when
 * configured. Migrations create the provider table (its unique indexes) and
 * the session column; a just-in-time sign-in writes user, account, member
 * and session together; concurrent first sign-ins of one person make one
 * user; a refusal inside the transaction (a ban, a full organization) leaves
 * nothing behind; a provider's `require` policy holds the session for the
 * second step, whose session names the provider only while it exists. And the
 * plugin refuses to start without organization().
 */
import { createAuth, createSession, runMigrations, type User } from '@gatehouse/core'
import { memoryAdapter } from '@gatehouse/core/adapters/memory'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { backendDialects, createTestBackend, lockWaiter, type TestBackend } from '../../core/test/kysely-backends.js'
import { sso } from '../src/plugin.js'
import { newUser, post } from './management-fixtures.js'
import { call, complete, enrollTwoFactor, organizationWithProvider, profile, provisionAuth, rows, sessionUser, type ProvisionAuth } from './provision-fixtures.js'

for (const { dialect, enabled } of backendDialects) {
  describe.skipIf(!enabled)(`sso sign-in on ${dialect}`, () => {
    let backend: TestBackend | undefined
    let auth: ProvisionAuth | undefined

    beforeAll(async () => {
      backend = await createTestBackend(dialect)
      auth = provisionAuth({ core: { database: backend.factory }, organization: { membershipLimit: 3 }, sso: { twoFactorPage: '/two-factor' } })
      expect((await runMigrations(auth)).applied).toBe(true)
    })
    afterAll(async () => {
      await auth?.close()
      await backend?.drop()
    })

    function ready(): ProvisionAuth {
      if (!auth) throw new Error('backend not ready')
      return auth
    }

    it('migrations create the table; a second run has nothing to do', async () => {
      const auth = ready()
      const { adapter } = await auth.$context
      expect(await adapter.count({ model: 'ssoProvider' })).toBe(0)
      expect((await runMigrations(auth)).statements).toEqual([])
    })

    it('a first sign-in writes user, account, member and session; concurrent ones make one user; refusals leave nothing', async () => {
      const auth = ready()
      const { org } = await organizationWithProvider(auth, { domain: `${dialect}.test` })
      const email = `ada@${dialect}.test`
      const landed = await Promise.all(Array.from({ length: 8 }, () => complete(auth, 'acme', profile(email))))
      expect(landed.filter((one) => one.error === null)).toHaveLength(8)
      expect((await sessionUser(auth, landed[0]?.cookie ?? ''))?.email).toBe(email)
      const stored = await rows(auth, email)
      expect(stored.user).toMatchObject({ emailVerified: true })
      expect(stored.accounts).toHaveLength(1)
      expect(stored.members).toMatchObject([{ organizationId: org.id, role: 'member' }])
      expect(stored.sessions.every((session) => session.amr === 'fed' && session.ssoProviderId === 'acme')).toBe(true)

      // A banned user: the session hook refuses, the link rolls back.
      const banned = await newUser(auth, { email: `bo@${dialect}.test` })
      const { db } = await auth.$context
      await db.update({ model: 'user', where: { field: 'id', value: banned.id }, update: { banned: true } })
      expect((await complete(auth, 'acme', profile(banned.email))).error).toBe('banned_user')
      expect((await rows(auth, banned.email)).accounts.map((account) => account.providerId)).toEqual(['credential'])

      // The organization is full (owner, ada, and one more): the new user is not created either.
      expect((await complete(auth, 'acme', profile(`cy@${dialect}.test`))).error).toBeNull()
      expect((await complete(auth, 'acme', profile(`dee@${dialect}.test`))).error).toBe('organization_membership_limit_reached')
      expect((await rows(auth, `dee@${dialect}.test`)).user).toBeNull()
    })

    it("'require': the code creates the session (fed otp mfa) under the provider's lock; after the provider's deletion, none", async () => {
      const auth = ready()
      const domain = `strict-${dialect}.test`
      const { owner } = await organizationWithProvider(auth, { providerId: 'strict', domain, twoFactor: 'require' })
      const ada = await newUser(auth, { email: `ada@${domain}` })
      const { code } = await enrollTwoFactor(auth, ada)

      const landed = await complete(auth, 'strict', profile(ada.email))
      expect(landed).toMatchObject({ status: 302, location: '/two-factor?callbackURL=%2Fdashboard', cookiesSet: ['two_factor'] })
      expect((await call(auth, '/two-factor/verify-totp', landed.cookie, { code: code() })).status).toBe(200)
      expect((await rows(auth, ada.email)).sessions.filter((session) => session.ssoProviderId === 'strict')).toMatchObject([{ amr: 'fed otp mfa' }])

      auth.clock.advance(30_000)
      const again = await complete(auth, 'strict', profile(ada.email))
      expect((await post(auth, 'delete-provider', owner, { providerId: 'strict' })).status).toBe(200)
      expect((await call(auth, '/two-factor/verify-totp', again.cookie, { code: code() })).body).toMatchObject({ code: 'SSO_PROVIDER_GONE' })
      expect((await rows(auth, ada.email)).sessions.filter((session) => session.ssoProviderId === 'strict')).toEqual([])
    })

    it.skipIf(dialect !== 'postgres')('an organization deleted while a session naming its provider commits waits for it, then ends it', async () => {
      const auth = ready()
      const domain = `race-${dialect}.test`
      const { owner, org } = await organizationWithProvider(auth, { providerId: 'race', domain })
      const ada = await newUser(auth, { email: `ada@${domain}` })
      const ctx = await auth.$context
      const user = await ctx.db.findOne<User & { id: string }>({ model: 'user', where: { field: 'email', value: ada.email } })
      if (!user) throw new Error('no user')
      let deletion: ReturnType<typeof call> | undefined
      // A session naming the provider, open and uncommitted (a second step completing, say) while the organization goes.
      await ctx.db.transaction(async (tx) => {
        await createSession(ctx, user, { db: tx, mirror: false, amr: ['fed'], fields: { ssoProviderId: 'race' } })
        deletion = call(auth, '/organization/delete', owner.cookie, { organizationId: org.id })
        // Commit once the deletion waits on the provider's lock, or once it has finished without waiting.
        await Promise.race([deletion, lockWaiter(backend as TestBackend)])
      })
      expect((await deletion)?.status).toBe(200)
      expect((await rows(auth, ada.email)).sessions.filter((session) => session.ssoProviderId === 'race')).toEqual([])
    })
  })
}

describe('sso() without organization()', () => {
  it('refuses to start, naming the plugin it needs', async () => {
    const auth = createAuth({
      baseURL: 'http://localhost:3000',
      secret: 'sso-without-organization-0123456789abcdef',
      database: memoryAdapter(),
      logger: { disabled: true },
      plugins: [sso()],
    })
    await expect(auth.$context).rejects.toThrow('sso() needs the organization plugin')
  })
})

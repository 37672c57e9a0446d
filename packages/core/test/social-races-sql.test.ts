/**
 * The concurrent first sign-in of one provider account on the SQL backends:
 * twenty callbacks race to create the user; the unique indexes pick one and
 * the others start over, find it and sign in. SQLite always; PostgreSQL and
 * MariaDB when configured, where the callbacks use separate pooled
 * connections and really interleave.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accountAuth } from './accounts.js'
import { BASE } from './helpers.js'
import { backendDialects, createTestBackend, type TestBackend } from './kysely-backends.js'
import { Browser, shiftedClock, startOAuthProvider, startSocial } from './social-fixtures.js'

const CLIENT = { clientId: 'race-client', clientSecret: 'race-secret-0123456789' }

let mock: Awaited<ReturnType<typeof startOAuthProvider>>

beforeAll(async () => {
  mock = await startOAuthProvider(CLIENT)
})
afterAll(async () => {
  await mock.close()
})

for (const { dialect, enabled } of backendDialects) {
  describe.skipIf(!enabled)(`twenty concurrent first sign-ins on ${dialect}`, () => {
    let backend: TestBackend | undefined
    let auth: ReturnType<typeof accountAuth> | undefined

    beforeAll(async () => {
      backend = await createTestBackend(dialect)
      auth = accountAuth({
        clock: shiftedClock(),
        database: backend.factory,
        socialProviders: {
          mock: {
            type: 'oauth2',
            ...CLIENT,
            authorizationEndpoint: `${mock.origin}/authorize`,
            tokenEndpoint: `${mock.origin}/token`,
            userInfoEndpoint: `${mock.origin}/me`,
            mapProfile: (profile) => ({
              id: String(profile.id),
              email: String(profile.email),
              emailVerified: profile.email_verified === true,
              name: String(profile.name),
              image: null,
              data: profile,
            }),
          },
        },
      })
      await (await auth.$context).adapter.migrate?.()
    })
    afterAll(async () => {
      if (auth) await (await auth.$context).adapter.close?.()
      await backend?.drop()
    })

    it('make one user and one account, and every browser is signed in', async () => {
      if (!auth || !backend) throw new Error('backend not ready')
      for (let round = 0; round < 2; round++) {
        mock.behaviour.user = { id: `race-${dialect}-${round}`, email: `race-${round}@example.com`, email_verified: true, name: 'Racer' }
        const browsers = Array.from({ length: 20 }, () => new Browser(auth as NonNullable<typeof auth>))
        const starts = await Promise.all(browsers.map((browser) => startSocial(browser, { provider: 'mock', callbackURL: '/in', newUserCallbackURL: '/new' })))
        const ends = await Promise.all(browsers.map((browser, index) => browser.navigate(starts[index]?.body.url as string)))
        const landed = ends.map((end) => end.location)
        expect(landed.filter((location) => location === `${BASE}/new`)).toHaveLength(1)
        expect(landed.filter((location) => location === `${BASE}/in`)).toHaveLength(19)
        const users = await backend.db.selectFrom('user').selectAll().where('email', '=', `race-${round}@example.com`).execute()
        expect(users).toHaveLength(1)
        const accounts = await backend.db.selectFrom('account').selectAll().where('accountId', '=', `race-${dialect}-${round}`).execute()
        expect(accounts).toHaveLength(1)
        expect(accounts[0]?.userId).toBe(users[0]?.id)
      }
    })
  })
}

/**
 * GET /list-accounts and POST /unlink-account. Extra (social) accounts are
 * inserted straight into the store; the unlink race runs on the in-memory
 * adapter, SQLite, and PostgreSQL and MariaDB when configured, where the two
 * requests use separate pooled connections and really interleave.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accountAuth, authed, signIn, signUp } from './accounts.js'
import { request } from './helpers.js'
import { backendDialects, createTestBackend, type TestBackend } from './kysely-backends.js'

type Auth = ReturnType<typeof accountAuth>
type Options = Parameters<typeof accountAuth>[0] & object

const DAY = 24 * 60 * 60 * 1000

async function accounts(auth: Auth) {
  return (await auth.$context).adapter.findMany({ model: 'account', sortBy: { field: 'accountId', direction: 'asc' } })
}

async function link(auth: Auth, userId: string, providerId: string, accountId: string, extra: Record<string, unknown> = {}) {
  const db = (await auth.$context).db
  return db.create({ model: 'account', data: { providerId, accountId, userId, ...extra } })
}

async function list(auth: Auth, cookie: string) {
  const response = await auth.handler(authed('/api/auth/list-accounts', cookie))
  return { response, body: await response.clone().json() }
}

async function unlink(auth: Auth, cookie: string, json: unknown) {
  const response = await auth.handler(authed('/api/auth/unlink-account', cookie, { method: 'POST', json }))
  return { response, body: await response.clone().json() }
}

async function twoAccounts(auth: Auth, email = 'ada@example.com') {
  const { cookie, body } = await signUp(auth, { email })
  const userId = body.user.id as string
  await link(auth, userId, 'github', `gh-${email}`)
  return { cookie, userId }
}

describe('GET /list-accounts', () => {
  it("lists the caller's accounts as {id, provider, createdAt, updatedAt, accountId, scopes}", async () => {
    const auth = accountAuth()
    const { cookie, body: ada } = await signUp(auth, { email: 'ada@example.com' })
    const other = await signUp(auth, { email: 'other@example.com' })
    auth.clock.advance(1000)
    const github = await link(auth, ada.user.id, 'github', '1234', {
      scope: 'read:user,user:email',
      accessToken: 'gho_access_secret',
      refreshToken: 'ghr_refresh_secret',
      idToken: 'id.token.secret',
    })
    await link(auth, other.body.user.id, 'google', 'g-other')

    const { response, body } = await list(auth, cookie)
    expect(response.status).toBe(200)
    const credential = (await accounts(auth)).find((account) => account.userId === ada.user.id && account.providerId === 'credential')
    expect(body).toEqual([
      {
        id: credential?.id,
        provider: 'credential',
        createdAt: (credential?.createdAt as Date).toISOString(),
        updatedAt: (credential?.updatedAt as Date).toISOString(),
        accountId: ada.user.id,
        scopes: [],
      },
      {
        id: github.id,
        provider: 'github',
        createdAt: (github.createdAt as Date).toISOString(),
        updatedAt: (github.updatedAt as Date).toISOString(),
        accountId: '1234',
        scopes: ['read:user', 'user:email'],
      },
    ])
    const text = await response.text()
    expect(text).not.toMatch(/secret|scrypt|password|userId/)
  })

  it('needs a session: 401', async () => {
    const auth = accountAuth()
    await signUp(auth, { email: 'ada@example.com' })
    const response = await auth.handler(request('/api/auth/list-accounts'))
    expect(response.status).toBe(401)
  })
})

describe('POST /unlink-account', () => {
  it('removes the named account and answers {status: true}', async () => {
    const auth = accountAuth()
    const { cookie, userId } = await twoAccounts(auth)
    const { response, body } = await unlink(auth, cookie, { providerId: 'github' })
    expect(response.status).toBe(200)
    expect(body).toEqual({ status: true })
    expect((await accounts(auth)).map((account) => [account.providerId, account.userId])).toEqual([['credential', userId]])
    expect((await list(auth, cookie)).body.map((account: { provider: string }) => account.provider)).toEqual(['credential'])
  })

  it('with accountId, removes exactly that account of the provider', async () => {
    const auth = accountAuth()
    const { cookie, body } = await signUp(auth, { email: 'ada@example.com' })
    await link(auth, body.user.id, 'github', 'gh-1')
    await link(auth, body.user.id, 'github', 'gh-2')
    expect((await unlink(auth, cookie, { providerId: 'github', accountId: 'gh-2' })).response.status).toBe(200)
    expect((await accounts(auth)).map((account) => account.accountId).sort()).toEqual([body.user.id, 'gh-1'].sort())
  })

  it('an account that is missing or someone else\'s is 400 "Account not found"', async () => {
    const auth = accountAuth()
    const { cookie } = await twoAccounts(auth)
    const other = await twoAccounts(auth, 'other@example.com')
    await link(auth, other.userId, 'google', 'g-other')
    for (const json of [
      { providerId: 'google' },
      { providerId: 'google', accountId: 'g-other' },
      { providerId: 'github', accountId: 'gh-other@example.com' },
    ]) {
      const { response, body } = await unlink(auth, cookie, json)
      expect(response.status).toBe(400)
      expect(body).toEqual({ code: 'ACCOUNT_NOT_FOUND', message: 'Account not found' })
    }
    expect(await accounts(auth)).toHaveLength(5)
  })

  it('the last account stays ("You can\'t unlink your last account") unless allowUnlinkingAll', async () => {
    const auth = accountAuth()
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    const { response, body } = await unlink(auth, cookie, { providerId: 'credential' })
    expect(response.status).toBe(400)
    expect(body).toEqual({ code: 'FAILED_TO_UNLINK_LAST_ACCOUNT', message: "You can't unlink your last account" })
    expect(await accounts(auth)).toHaveLength(1)

    const allowing = accountAuth({ account: { accountLinking: { allowUnlinkingAll: true } } })
    const ada = await signUp(allowing, { email: 'ada@example.com' })
    expect((await unlink(allowing, ada.cookie, { providerId: 'credential' })).response.status).toBe(200)
    expect(await accounts(allowing)).toHaveLength(0)
  })

  it('needs a fresh session: 403 "Session is not fresh" past freshAge; freshAge 0 turns it off', async () => {
    const auth = accountAuth()
    const { cookie } = await twoAccounts(auth)
    auth.clock.advance(2 * DAY)
    for (let attempt = 0; attempt < 2; attempt++) {
      // Twice: checking freshness must not refresh the session into passing the next time.
      const { response, body } = await unlink(auth, cookie, { providerId: 'github' })
      expect(response.status).toBe(403)
      expect(body).toEqual({ code: 'SESSION_NOT_FRESH', message: 'Session is not fresh' })
    }
    expect(await accounts(auth)).toHaveLength(2)
    const fresh = await signIn(auth, { email: 'ada@example.com' })
    expect((await unlink(auth, fresh.cookie, { providerId: 'github' })).response.status).toBe(200)

    const off = accountAuth({ session: { freshAge: 0 } })
    const ada = await twoAccounts(off)
    off.clock.advance(6 * DAY)
    expect((await unlink(off, ada.cookie, { providerId: 'github' })).response.status).toBe(200)
  })

  it('needs a session: 401; a providerId is required: 400', async () => {
    const auth = accountAuth()
    const { cookie } = await twoAccounts(auth)
    const anonymous = await auth.handler(request('/api/auth/unlink-account', { json: { providerId: 'github' } }))
    expect(anonymous.status).toBe(401)
    expect((await unlink(auth, cookie, {})).response.status).toBe(400)
    expect(await accounts(auth)).toHaveLength(2)
  })
})

async function raceLastTwo(auth: Auth, email = 'ada@example.com') {
  const { cookie, userId } = await twoAccounts(auth, email)
  const results = await Promise.all([
    unlink(auth, cookie, { providerId: 'credential' }),
    unlink(auth, cookie, { providerId: 'github' }),
  ])
  const left = (await accounts(auth)).filter((account) => account.userId === userId)
  return { statuses: results.map((result) => result.response.status).sort(), results, left }
}

function expectOneUnlinked(outcome: Awaited<ReturnType<typeof raceLastTwo>>) {
  expect(outcome.statuses).toEqual([200, 400])
  expect(outcome.results.find((result) => result.response.status === 400)?.body.code).toBe('FAILED_TO_UNLINK_LAST_ACCOUNT')
  expect(outcome.left).toHaveLength(1)
}

describe('POST /unlink-account: two concurrent unlinks of the last two accounts', () => {
  it('in memory: exactly one succeeds', async () => {
    expectOneUnlinked(await raceLastTwo(accountAuth()))
  })

  for (const { dialect, enabled } of backendDialects) {
    describe.skipIf(!enabled)(dialect, () => {
      let backend: TestBackend | undefined
      const opened: Auth[] = []

      beforeAll(async () => {
        backend = await createTestBackend(dialect)
      })
      afterAll(async () => {
        for (const auth of opened) await (await auth.$context).adapter.close?.()
        await backend?.drop()
      })

      async function backendAuth(options: Options = {}): Promise<Auth> {
        if (!backend) throw new Error('backend not ready')
        const auth = accountAuth({ ...options, database: backend.factory })
        opened.push(auth)
        await (await auth.$context).adapter.migrate?.()
        return auth
      }

      it('exactly one succeeds, repeatedly', async () => {
        const auth = await backendAuth()
        for (let round = 0; round < 5; round++) expectOneUnlinked(await raceLastTwo(auth, `race-${round}@example.com`))
      })
    })
  }
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signEmailToken } from '../src/verification/email-token.js'
import { accountAuth, authed, PASSWORD, signIn, signUp } from './accounts.js'
import { type Auth, clearsSession, deleteAuth, postDelete, rows } from './delete-user-fixtures.js'
import { BASE, request } from './helpers.js'
import { backendDialects, createTestBackend, type TestBackend } from './kysely-backends.js'

/** Signs up ada@example.com and has the deletion link mailed; returns her cookie, the token and the mailed link. */
async function mailedToken(auth: ReturnType<typeof deleteAuth>, email = 'ada@example.com') {
  const { cookie, body } = await signUp(auth, { email })
  await postDelete(auth, cookie)
  const mail = auth.deleteMails.at(-1)
  if (!mail || mail.to !== email) throw new Error('no deletion mail')
  return { cookie, token: mail.token, url: mail.url, userId: body.user.id as string }
}

function callback(auth: Auth, query: string, cookie?: string) {
  const path = `/api/auth/delete-user/callback?${query}`
  return auth.handler(cookie ? authed(path, cookie) : request(path))
}

/** Every stored row a deletion could touch, to show that a refused request changed nothing. */
async function stored(auth: Auth) {
  return {
    user: await rows(auth, 'user'),
    session: await rows(auth, 'session'),
    account: await rows(auth, 'account'),
    verification: await rows(auth, 'verification'),
  }
}

describe('GET /delete-user/callback: the owner\'s session', () => {
  it('deletes the user the token names and redirects to callbackURL, clearing cookies', async () => {
    const auth = deleteAuth({ mail: true })
    const other = await signUp(auth, { email: 'other@example.com' })
    const { cookie, token } = await mailedToken(auth)
    await signIn(auth, { email: 'ada@example.com' })

    const response = await callback(auth, `token=${token}&callbackURL=/goodbye`, cookie)
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/goodbye')
    expect(clearsSession(response)).toBe(true)
    expect((await rows(auth, 'user')).map((user) => user.email)).toEqual(['other@example.com'])
    expect((await rows(auth, 'session')).map((session) => session.userId)).toEqual([other.body.user.id])
    expect((await rows(auth, 'account')).map((account) => account.userId)).toEqual([other.body.user.id])
    expect(await rows(auth, 'verification')).toHaveLength(0)
    // The other user's session still works.
    const session = await auth.handler(authed('/api/auth/get-session', other.cookie))
    expect((await session.json()).user.email).toBe('other@example.com')
  })

  it('the mailed link followed in the signed-in browser deletes; without callbackURL the answer is JSON', async () => {
    const auth = deleteAuth({ mail: true })
    const ada = await mailedToken(auth)
    // A browser following a link from a mail sends no Origin header.
    const followed = await auth.handler(new Request(ada.url, { headers: { cookie: ada.cookie } }))
    expect(followed.status).toBe(302)
    expect(followed.headers.get('location')).toBe('/')
    expect(clearsSession(followed)).toBe(true)
    expect(await rows(auth, 'user')).toHaveLength(0)

    const bob = await mailedToken(auth, 'bob@example.com')
    const response = await callback(auth, `token=${bob.token}`, bob.cookie)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ success: true, message: 'User deleted' })
    expect(clearsSession(response)).toBe(true)
    expect(await stored(auth)).toEqual({ user: [], session: [], account: [], verification: [] })
  })

  it('a missing, unknown, altered or expired token is "invalid token" (or error=INVALID_TOKEN) and deletes nothing', async () => {
    const auth = deleteAuth({ mail: true })
    const { cookie, token } = await mailedToken(auth)
    const before = await stored(auth)
    for (const query of ['', 'token=', `token=${'a'.repeat(32)}`, `token=${token.toUpperCase()}`]) {
      const response = await callback(auth, query, cookie)
      expect(response.status).toBe(400)
      expect(await response.json()).toEqual({ code: 'INVALID_TOKEN', message: 'invalid token' })
      expect(clearsSession(response)).toBe(false)
    }
    const redirected = await callback(auth, `token=${'b'.repeat(32)}&callbackURL=${encodeURIComponent('/bye?from=mail#top')}`, cookie)
    expect(redirected.status).toBe(302)
    expect(redirected.headers.get('location')).toBe('/bye?from=mail&error=INVALID_TOKEN#top')
    expect(await stored(auth)).toEqual(before)

    // One day on the token has expired; the session (7 days) has not.
    auth.clock.advance(86_400_000)
    const expired = await callback(auth, `token=${token}&callbackURL=/bye`, cookie)
    expect(expired.status).toBe(302)
    expect(expired.headers.get('location')).toBe('/bye?error=INVALID_TOKEN')
    expect(await rows(auth, 'user')).toHaveLength(1)
  })

  it('twenty concurrent follows by the owner: exactly one deletes, the others are refused, none fails', async () => {
    let afterDeletes = 0
    const auth = deleteAuth({
      mail: true,
      afterDelete: () => {
        afterDeletes++
      },
    })
    const other = await signUp(auth, { email: 'other@example.com' })
    const { cookie, token } = await mailedToken(auth)
    const responses = await Promise.all(Array.from({ length: 20 }, () => callback(auth, `token=${token}`, cookie)))
    await expectOneDeletion(responses)
    expect(afterDeletes).toBe(1)
    expect((await rows(auth, 'user')).map((user) => user.id)).toEqual([other.body.user.id])
    expect(await rows(auth, 'verification')).toHaveLength(0)
  })

  it('an untrusted callbackURL is 403 and deletes nothing', async () => {
    const auth = deleteAuth({ mail: true })
    const { cookie, token } = await mailedToken(auth)
    const response = await callback(auth, `token=${token}&callbackURL=${encodeURIComponent('https://evil.test/')}`, cookie)
    expect(response.status).toBe(403)
    expect((await response.json()).message).toBe('Invalid callbackURL')
    expect(await rows(auth, 'user')).toHaveLength(1)
  })

  it('disabled: 404', async () => {
    const auth = accountAuth()
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    for (const response of [await callback(auth, `token=${'a'.repeat(32)}`), await callback(auth, `token=${'a'.repeat(32)}`, cookie)]) {
      expect(response.status).toBe(404)
      expect((await response.json()).code).toBe('DELETE_USER_DISABLED')
    }
    expect(await rows(auth, 'user')).toHaveLength(1)
  })
})

/** Exactly one 200; every other answer is "invalid token" (lost the race) or 401 (its session went with the user). */
async function expectOneDeletion(responses: Response[]) {
  expect(responses.filter((response) => response.status === 200)).toHaveLength(1)
  for (const response of responses.filter((each) => each.status !== 200)) {
    const body = await response.json()
    expect([400, 401]).toContain(response.status)
    expect(body).toEqual(
      response.status === 400 ? { code: 'INVALID_TOKEN', message: 'invalid token' } : { code: 'UNAUTHORIZED', message: 'Unauthorized' },
    )
  }
}

describe('GET /delete-user/callback: nobody signed in', () => {
  it('is 401 "Unauthorized", or a redirect with error=UNAUTHORIZED; nothing deleted, the token left for its owner', async () => {
    const calls: string[] = []
    const auth = deleteAuth({ mail: true, beforeDelete: (user) => void calls.push(user.email) })
    const { cookie, token } = await mailedToken(auth)
    const before = await stored(auth)

    const direct = await callback(auth, `token=${token}`)
    expect(direct.status).toBe(401)
    expect(await direct.json()).toEqual({ code: 'UNAUTHORIZED', message: 'Unauthorized' })
    const redirected = await callback(auth, `token=${token}&callbackURL=${encodeURIComponent('/bye?from=mail')}`)
    expect(redirected.status).toBe(302)
    expect(redirected.headers.get('location')).toBe('/bye?from=mail&error=UNAUTHORIZED')
    expect(redirected.headers.getSetCookie()).toEqual([])
    // Nobody signed in is told nothing about the token: an unknown one gets the same answer.
    const unknown = await callback(auth, `token=${'a'.repeat(32)}&callbackURL=/bye`)
    expect(unknown.headers.get('location')).toBe('/bye?error=UNAUTHORIZED')
    expect(await stored(auth)).toEqual(before)
    expect(calls).toEqual([])

    expect((await callback(auth, `token=${token}`, cookie)).status).toBe(200)
    expect(await rows(auth, 'user')).toHaveLength(0)
  })

  it('a mail scanner prefetching the link (GET, no cookies) changes nothing; the owner follows it afterwards', async () => {
    const auth = deleteAuth({ mail: true })
    const ada = await mailedToken(auth)
    const before = await stored(auth)

    for (let i = 0; i < 3; i++) {
      const prefetch = await auth.handler(new Request(ada.url))
      expect(prefetch.status).toBe(302)
      expect(prefetch.headers.get('location')).toBe('/?error=UNAUTHORIZED')
      expect(prefetch.headers.getSetCookie()).toEqual([])
    }
    expect(await stored(auth)).toEqual(before)
    // The owner's session was not touched either.
    const session = await auth.handler(authed('/api/auth/get-session', ada.cookie))
    expect((await session.json()).user.email).toBe('ada@example.com')

    const followed = await auth.handler(new Request(ada.url, { headers: { cookie: ada.cookie } }))
    expect(followed.status).toBe(302)
    expect(followed.headers.get('location')).toBe('/')
    expect(await stored(auth)).toEqual({ user: [], session: [], account: [], verification: [] })
  })

  it('a cookie of a session that no longer exists counts as no session', async () => {
    const auth = deleteAuth({ mail: true })
    const ada = await mailedToken(auth)
    const { cookie: other } = await signIn(auth, { email: 'ada@example.com' })
    await auth.handler(authed('/api/auth/sign-out', other, { method: 'POST' }))
    const response = await callback(auth, `token=${ada.token}&callbackURL=/bye`, other)
    expect(response.headers.get('location')).toBe('/bye?error=UNAUTHORIZED')
    expect(await rows(auth, 'user')).toHaveLength(1)
    expect(await rows(auth, 'verification')).toHaveLength(1)
  })

  it('the callbackURL guard still applies: an untrusted one is 403, never a redirect', async () => {
    const auth = deleteAuth({ mail: true })
    const { token } = await mailedToken(auth)
    const response = await callback(auth, `token=${token}&callbackURL=${encodeURIComponent('https://evil.test/')}`)
    expect(response.status).toBe(403)
    expect(response.headers.get('location')).toBeNull()
    expect(await rows(auth, 'verification')).toHaveLength(1)
  })
})

describe('GET /delete-user/callback: another user\'s session', () => {
  it('is "invalid token" (or error=INVALID_TOKEN); nobody deleted, the token left for its owner', async () => {
    const calls: string[] = []
    const auth = deleteAuth({ mail: true, beforeDelete: (user) => void calls.push(user.email) })
    const ada = await mailedToken(auth)
    const eve = await signUp(auth, { email: 'eve@example.com' })
    const before = await stored(auth)

    const direct = await callback(auth, `token=${ada.token}`, eve.cookie)
    expect(direct.status).toBe(400)
    expect(await direct.json()).toEqual({ code: 'INVALID_TOKEN', message: 'invalid token' })
    expect(clearsSession(direct)).toBe(false)
    // The forwarded link as mailed, opened by eve.
    const forwarded = await auth.handler(new Request(ada.url, { headers: { cookie: eve.cookie } }))
    expect(forwarded.status).toBe(302)
    expect(forwarded.headers.get('location')).toBe('/?error=INVALID_TOKEN')
    expect(clearsSession(forwarded)).toBe(false)
    expect(await stored(auth)).toEqual(before)
    expect(calls).toEqual([])

    const own = await callback(auth, `token=${ada.token}`, ada.cookie)
    expect(own.status).toBe(200)
    expect((await rows(auth, 'user')).map((user) => user.email)).toEqual(['eve@example.com'])
    expect(calls).toEqual(['ada@example.com'])
    const session = await auth.handler(authed('/api/auth/get-session', eve.cookie))
    expect((await session.json()).user.email).toBe('eve@example.com')
  })
})

describe('delete-account tokens are bound to their purpose', () => {
  async function resetToken(auth: Auth, email: string) {
    await auth.handler(request('/api/auth/request-password-reset', { json: { email }, headers: { origin: BASE } }))
    const token = auth.mailbox.last('reset-password')?.token
    if (!token) throw new Error('no reset mail')
    return token
  }

  it('a reset-password token is rejected at delete-user/callback and stays usable for its reset', async () => {
    const auth = deleteAuth({ mail: true })
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    const token = await resetToken(auth, 'ada@example.com')
    const response = await callback(auth, `token=${token}`, cookie)
    expect(response.status).toBe(400)
    expect((await response.json()).code).toBe('INVALID_TOKEN')
    expect(await rows(auth, 'user')).toHaveLength(1)

    const reset = await auth.handler(
      request('/api/auth/reset-password', { json: { newPassword: 'a brand new passphrase', token }, headers: { origin: BASE } }),
    )
    expect(reset.status).toBe(200)
  })

  it('a delete-account token is rejected by reset-password and by POST /delete-user of the same user as a password', async () => {
    const auth = deleteAuth({ mail: true })
    const { cookie, token } = await mailedToken(auth)
    const reset = await auth.handler(
      request('/api/auth/reset-password', { json: { newPassword: 'a brand new passphrase', token }, headers: { origin: BASE } }),
    )
    expect(reset.status).toBe(400)
    expect((await reset.json()).message).toBe('invalid token')
    expect((await postDelete(auth, cookie, { password: token })).body.code).toBe('INVALID_PASSWORD')
    // The password is unchanged and the deletion link still works.
    expect((await signIn(auth, { email: 'ada@example.com', password: PASSWORD })).response.status).toBe(200)
    expect((await callback(auth, `token=${token}`, cookie)).status).toBe(200)
  })

  it('an email-verification JWT is rejected at delete-user/callback', async () => {
    const auth = deleteAuth({ mail: true })
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    const jwt = await signEmailToken(await auth.$context, { email: 'ada@example.com' }, 3600)
    const response = await callback(auth, `token=${jwt}`, cookie)
    expect(response.status).toBe(400)
    expect(await rows(auth, 'user')).toHaveLength(1)
  })

  it('tokens and passwords never reach the logs', async () => {
    const lines: string[] = []
    const auth = deleteAuth(
      { mail: true },
      { logger: { level: 'debug', log: (level, message, meta) => lines.push(`${level} ${message} ${JSON.stringify(meta ?? {})}`) } },
    )
    const { cookie, token } = await mailedToken(auth)
    await postDelete(auth, cookie, { password: 'a wrong password here' })
    await callback(auth, `token=${token}`)
    await callback(auth, `token=${token}`, cookie)
    expect(await rows(auth, 'user')).toHaveLength(0)
    const text = lines.join('\n')
    expect(text).not.toContain(token)
    expect(text).not.toContain('a wrong password here')
    expect(text).not.toContain(PASSWORD)
  })
})

// On SQL backends the concurrent follows run on separate pooled connections and really interleave.
for (const { dialect, enabled } of backendDialects) {
  describe.skipIf(!enabled)(`GET /delete-user/callback on ${dialect}`, () => {
    let backend: TestBackend | undefined
    let auth: ReturnType<typeof deleteAuth> | undefined

    beforeAll(async () => {
      backend = await createTestBackend(dialect)
      auth = deleteAuth({ mail: true }, { database: backend.factory })
      await (await auth.$context).adapter.migrate?.()
    })
    afterAll(async () => {
      if (auth) await (await auth.$context).adapter.close?.()
      await backend?.drop()
    })

    function ready() {
      if (!auth) throw new Error('backend not ready')
      return auth
    }

    it('twenty concurrent follows by the owner: exactly one deletes the user, sessions, accounts and token', async () => {
      const current = ready()
      const other = await signUp(current, { email: 'other@example.com' })
      for (let round = 0; round < 2; round++) {
        const { cookie, token, userId } = await mailedToken(current, `ada-${round}@example.com`)
        await signIn(current, { email: `ada-${round}@example.com` })
        const responses = await Promise.all(Array.from({ length: 20 }, () => callback(current, `token=${token}`, cookie)))
        await expectOneDeletion(responses)
        for (const model of ['session', 'account', 'verification']) {
          expect((await rows(current, model)).filter((row) => row.userId === userId || row.value === userId)).toEqual([])
        }
        expect((await rows(current, 'user')).map((user) => user.id)).toEqual([other.body.user.id])
      }
    })

    it('without a session or from another user nothing is deleted and the token survives', async () => {
      const current = ready()
      const ada = await mailedToken(current, 'ada-refused@example.com')
      const eve = await signUp(current, { email: 'eve-refused@example.com' })
      const requests = [
        ...Array.from({ length: 5 }, () => callback(current, `token=${ada.token}`)),
        ...Array.from({ length: 5 }, () => callback(current, `token=${ada.token}`, eve.cookie)),
      ]
      const statuses = (await Promise.all(requests)).map((response) => response.status)
      expect(statuses).toEqual([401, 401, 401, 401, 401, 400, 400, 400, 400, 400])
      expect((await rows(current, 'verification')).filter((row) => row.value === ada.userId)).toHaveLength(1)
      expect((await rows(current, 'user')).some((user) => user.id === ada.userId)).toBe(true)

      expect((await callback(current, `token=${ada.token}`, ada.cookie)).status).toBe(200)
      expect((await rows(current, 'user')).some((user) => user.id === ada.userId)).toBe(false)
    })
  })
}

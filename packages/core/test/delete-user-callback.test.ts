import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signEmailToken } from '../src/verification/email-token.js'
import { accountAuth, authed, PASSWORD, signIn, signUp } from './accounts.js'
import { type Auth, clearsSession, deleteAuth, postDelete, rows } from './delete-user-fixtures.js'
import { BASE, request } from './helpers.js'
import { backendDialects, createTestBackend, type TestBackend } from './kysely-backends.js'

/** Signs up ada@example.com and has the deletion link mailed; returns her cookie and the token. */
async function mailedToken(auth: ReturnType<typeof deleteAuth>, email = 'ada@example.com') {
  const { cookie, body } = await signUp(auth, { email })
  await postDelete(auth, cookie)
  const token = auth.deleteMails.at(-1)?.token
  if (!token) throw new Error('no deletion mail')
  return { cookie, token, userId: body.user.id as string }
}

function callback(auth: Auth, query: string, cookie?: string) {
  const path = `/api/auth/delete-user/callback?${query}`
  return auth.handler(cookie ? authed(path, cookie) : request(path))
}

describe('GET /delete-user/callback', () => {
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
  })

  it('the mailed link itself works, from another device without a session; without callbackURL it answers JSON', async () => {
    const auth = deleteAuth({ mail: true })
    await mailedToken(auth)
    const link = new URL(auth.deleteMails[0]?.url ?? '')
    const followed = await auth.handler(new Request(link))
    expect(followed.status).toBe(302)
    expect(followed.headers.get('location')).toBe('/')
    expect(await rows(auth, 'user')).toHaveLength(0)

    const { token } = await mailedToken(auth, 'bob@example.com')
    const response = await callback(auth, `token=${token}`)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ success: true, message: 'User deleted' })
    expect(await rows(auth, 'user')).toHaveLength(0)
  })

  it('a token works once: the second use is "invalid token", or a redirect with error=INVALID_TOKEN', async () => {
    const auth = deleteAuth({ mail: true })
    const { token } = await mailedToken(auth)
    expect((await callback(auth, `token=${token}`)).status).toBe(200)

    const again = await callback(auth, `token=${token}`)
    expect(again.status).toBe(400)
    expect(await again.json()).toEqual({ code: 'INVALID_TOKEN', message: 'invalid token' })
    const redirected = await callback(auth, `token=${token}&callbackURL=${encodeURIComponent('/bye?from=mail#top')}`)
    expect(redirected.status).toBe(302)
    expect(redirected.headers.get('location')).toBe('/bye?from=mail&error=INVALID_TOKEN#top')
    expect(clearsSession(redirected)).toBe(false)
  })

  it('an expired, unknown or missing token deletes nothing', async () => {
    const auth = deleteAuth({ mail: true })
    const { token } = await mailedToken(auth)
    for (const query of ['', 'token=', `token=${'a'.repeat(32)}`, `token=${token.toUpperCase()}`]) {
      const response = await callback(auth, query)
      expect(response.status).toBe(400)
      expect((await response.json()).code).toBe('INVALID_TOKEN')
    }
    auth.clock.advance(86_400_000)
    const expired = await callback(auth, `token=${token}&callbackURL=/bye`)
    expect(expired.headers.get('location')).toBe('/bye?error=INVALID_TOKEN')
    expect(await rows(auth, 'user')).toHaveLength(1)
  })

  it('two concurrent clicks on one link: exactly one deletes', async () => {
    let afterDeletes = 0
    const auth = deleteAuth({
      mail: true,
      afterDelete: () => {
        afterDeletes++
      },
    })
    const { token } = await mailedToken(auth)
    const responses = await Promise.all(Array.from({ length: 5 }, () => callback(auth, `token=${token}`)))
    expect(responses.map((response) => response.status).sort()).toEqual([200, 400, 400, 400, 400])
    expect(afterDeletes).toBe(1)
    expect(await rows(auth, 'user')).toHaveLength(0)
    expect(await rows(auth, 'verification')).toHaveLength(0)
  })

  it('an untrusted callbackURL is 403 and deletes nothing', async () => {
    const auth = deleteAuth({ mail: true })
    const { token } = await mailedToken(auth)
    const response = await callback(auth, `token=${token}&callbackURL=${encodeURIComponent('https://evil.test/')}`)
    expect(response.status).toBe(403)
    expect((await response.json()).message).toBe('Invalid callbackURL')
    expect(await rows(auth, 'user')).toHaveLength(1)
  })

  it('disabled: 404', async () => {
    const auth = accountAuth()
    await signUp(auth, { email: 'ada@example.com' })
    const response = await callback(auth, `token=${'a'.repeat(32)}`)
    expect(response.status).toBe(404)
    expect((await response.json()).code).toBe('DELETE_USER_DISABLED')
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
    await signUp(auth, { email: 'ada@example.com' })
    const token = await resetToken(auth, 'ada@example.com')
    const response = await callback(auth, `token=${token}`)
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
    expect((await callback(auth, `token=${token}`)).status).toBe(200)
  })

  it('an email-verification JWT is rejected at delete-user/callback', async () => {
    const auth = deleteAuth({ mail: true })
    await signUp(auth, { email: 'ada@example.com' })
    const jwt = await signEmailToken(await auth.$context, { email: 'ada@example.com' }, 3600)
    const response = await callback(auth, `token=${jwt}`)
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
    await callback(auth, `token=${token}`)
    expect(await rows(auth, 'user')).toHaveLength(0)
    const text = lines.join('\n')
    expect(text).not.toContain(token)
    expect(text).not.toContain('a wrong password here')
    expect(text).not.toContain(PASSWORD)
  })
})

// On SQL backends the concurrent clicks run on separate pooled connections and really interleave.
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

    it('concurrent clicks on one link: exactly one deletes the user, sessions, accounts and token', async () => {
      const current = auth
      if (!current) throw new Error('backend not ready')
      const other = await signUp(current, { email: 'other@example.com' })
      for (let round = 0; round < 3; round++) {
        const { token, userId } = await mailedToken(current, `ada-${round}@example.com`)
        await signIn(current, { email: `ada-${round}@example.com` })
        const responses = await Promise.all(Array.from({ length: 4 }, () => callback(current, `token=${token}`)))
        expect(responses.map((response) => response.status).sort()).toEqual([200, 400, 400, 400])
        for (const model of ['session', 'account', 'verification']) {
          expect((await rows(current, model)).filter((row) => row.userId === userId || row.value === userId)).toEqual([])
        }
        expect((await rows(current, 'user')).map((user) => user.id)).toEqual([other.body.user.id])
      }
    })
  })
}

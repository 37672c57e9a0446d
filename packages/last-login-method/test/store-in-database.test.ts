/**
 * `storeInDatabase: true`: the user's `lastLoginMethod` column follows each
 * sign-in, written in the session's transaction where the route creates the
 * session through its request's store (sign-up), after the answer otherwise
 * (password sign-in, callbacks); a failure of the latter is logged and the
 * sign-in stands. Without the option there is no column at all.
 */
import { definePlugin } from '@gatehouse/core'
import { describe, expect, it } from 'vitest'
import { captureLogs } from '../../core/test/capture-logs.js'
import { username } from '../../username/src/index.js'
import { get, methodAuth, methodSet, PASSWORD, post, signUp, standIns, userRow } from './fixtures.js'

const stored = { storeInDatabase: true } as const

/** A plugin whose user-update hook fails every write of the field while `failing.on`: a database fault, as far as this plugin can tell. */
function failingWrites(failing: { on: boolean }) {
  return definePlugin({
    id: 'failing-writes',
    databaseHooks: {
      user: {
        update: {
          before: (update) => {
            if (failing.on && 'lastLoginMethod' in update) throw new Error('disk full')
          },
        },
      },
    },
  })
}

describe('without storeInDatabase', () => {
  it('adds no user field', async () => {
    const auth = methodAuth()
    const created = await signUp(auth)
    expect(await userRow(auth, created.userId)).not.toHaveProperty('lastLoginMethod')
    const { schema } = await auth.$context
    expect(schema.user?.fields).not.toHaveProperty('lastLoginMethod')
  })
})

describe('with storeInDatabase', () => {
  it('declares an optional string the client cannot write', async () => {
    const auth = methodAuth({ lastLoginMethod: stored })
    const { schema } = await auth.$context
    expect(schema.user?.fields.lastLoginMethod).toMatchObject({ type: 'string', required: false, input: false })
    const created = await signUp(auth, { lastLoginMethod: 'forged' })
    expect((await userRow(auth, created.userId))?.lastLoginMethod).toBe('email')
    await post(auth, '/update-user', { lastLoginMethod: 'forged' }, created.cookie)
    expect((await userRow(auth, created.userId))?.lastLoginMethod).toBe('email')
  })

  it('follows each sign-in: sign-up, username, a callback; a refused sign-in changes nothing', async () => {
    const auth = methodAuth({ lastLoginMethod: stored, plugins: [username(), standIns()] })
    const created = await signUp(auth, { username: 'ada' })
    expect((await userRow(auth, created.userId))?.lastLoginMethod).toBe('email')

    expect((await post(auth, '/sign-in/username', { username: 'ada', password: PASSWORD })).status).toBe(200)
    expect((await userRow(auth, created.userId))?.lastLoginMethod).toBe('username')

    expect((await get(auth, `/oauth2/callback/acme?email=${encodeURIComponent(created.email)}`)).status).toBe(302)
    expect((await userRow(auth, created.userId))?.lastLoginMethod).toBe('acme')

    expect((await post(auth, '/sign-in/email', { email: created.email, password: 'wrong password' })).status).toBe(401)
    expect((await userRow(auth, created.userId))?.lastLoginMethod).toBe('acme')
    expect((await post(auth, '/sign-in/email', { email: created.email, password: PASSWORD })).status).toBe(200)
    expect((await userRow(auth, created.userId))?.lastLoginMethod).toBe('email')
  })

  it('is written even when beforeStoreCookie refuses the cookie', async () => {
    const auth = methodAuth({ lastLoginMethod: { ...stored, beforeStoreCookie: () => false } })
    const created = await signUp(auth)
    expect(methodSet(created.setCookies)).toBeUndefined()
    expect((await userRow(auth, created.userId))?.lastLoginMethod).toBe('email')
  })

  it('asks customResolveMethod once per sign-in; a value that is not a short token leaves the field as it was', async () => {
    const paths: string[] = []
    let answer: string = 'sso-corp'
    const auth = methodAuth({
      lastLoginMethod: {
        ...stored,
        customResolveMethod: (ctx) => {
          paths.push(ctx.path)
          return answer
        },
      },
    })
    const created = await signUp(auth)
    expect(paths).toEqual(['/sign-up/email'])
    expect((await userRow(auth, created.userId))?.lastLoginMethod).toBe('sso-corp')
    answer = 'Not A Token'
    const signedIn = await post(auth, '/sign-in/email', { email: created.email, password: PASSWORD })
    expect(signedIn.status).toBe(200)
    expect((await userRow(auth, created.userId))?.lastLoginMethod).toBe('sso-corp')
  })

  it('a failed write after the answer is logged; the sign-in and its cookie stand', async () => {
    const logs = captureLogs()
    const failing = { on: false }
    const auth = methodAuth({ lastLoginMethod: stored, plugins: [failingWrites(failing)], core: { logger: logs.logger } })
    const { email, userId } = await signUp(auth)
    failing.on = true
    const signedIn = await post(auth, '/sign-in/email', { email, password: PASSWORD })
    expect(signedIn.status).toBe(200)
    expect(methodSet(signedIn.setCookies)).toBe('email')
    expect((await get(auth, '/get-session', signedIn.cookie)).body?.user.email).toBe(email)
    expect(logs.lines.some((line) => line.startsWith('error lastLoginMethod: lastLoginMethod not updated') && line.includes('disk full'))).toBe(true)
    expect((await userRow(auth, userId))?.lastLoginMethod).toBe('email')
  })

  it('a failed write inside the session transaction (sign-up) rolls the sign-up back with it', async () => {
    const auth = methodAuth({ lastLoginMethod: stored, plugins: [failingWrites({ on: true })] })
    const created = await signUp(auth)
    expect(created.status).toBe(500)
    expect(created.setCookies).toEqual([])
    const { db } = await auth.$context
    expect(await db.count({ model: 'user' })).toBe(0)
    expect(await db.count({ model: 'session' })).toBe(0)
  })
})

import { describe, expect, it } from 'vitest'
import { signUp } from '../../core/test/accounts.js'
import { browser, cartOf, fillCart, guestAuth, PASSWORD } from './fixtures.js'

describe('guests', () => {
  it('a guest gets a user with an undeliverable address and a session; a guest browser cannot make a second guest', async () => {
    const auth = guestAuth()
    const tab = browser(auth)
    const answer = await tab.call('/sign-in/anonymous', {})
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({ token: expect.any(String), user: { isAnonymous: true, emailVerified: false, name: 'Anonymous' } })
    expect(answer.body.user.email).toMatch(/^guest-[a-z0-9]{24}@anonymous\.invalid$/)
    expect((await tab.session())?.user.isAnonymous).toBe(true)
    expect(await tab.call('/sign-in/anonymous', {})).toMatchObject({ status: 400, body: { code: 'ANONYMOUS_USERS_CANNOT_SIGN_IN_AGAIN_ANONYMOUSLY' } })
  })

  it('signing up as a guest moves the cart to the new account in one go, and the guest is gone', async () => {
    const auth = guestAuth()
    const tab = browser(auth)
    const guest = (await tab.call('/sign-in/anonymous', {})).body.user
    await fillCart(auth, guest.id)
    const signedUp = await tab.call('/sign-up/email', { email: 'ada@example.com', password: PASSWORD, name: 'Ada' })
    expect(signedUp.status).toBe(200)
    const member = signedUp.body.user
    expect(auth.links).toEqual([{ guestId: guest.id, memberId: member.id }])
    expect((await cartOf(auth, member.id))?.value).toBe('three books')
    const { db } = await auth.$context
    expect(await db.findOne({ model: 'user', where: { field: 'id', value: guest.id } })).toBeNull()
    expect(await db.count({ model: 'session', where: { field: 'userId', value: guest.id } })).toBe(0)
    expect((await tab.session())?.user.email).toBe('ada@example.com')
  })

  it('signing in to an existing account links the guest too', async () => {
    const auth = guestAuth()
    await signUp(auth, { email: 'ada@example.com' })
    const tab = browser(auth)
    const guest = (await tab.call('/sign-in/anonymous', {})).body.user
    await fillCart(auth, guest.id)
    const signedIn = await tab.call('/sign-in/email', { email: 'ada@example.com', password: PASSWORD })
    expect(auth.links).toEqual([{ guestId: guest.id, memberId: signedIn.body.user.id }])
    expect((await cartOf(auth, signedIn.body.user.id))?.value).toBe('three books')
  })

  it('when onLinkAccount throws, the guest and its cart stay, and the sign-up stands', async () => {
    const auth = guestAuth({ anonymous: { onLinkAccount: () => Promise.reject(new Error('cart service down')) } })
    const tab = browser(auth)
    const guest = (await tab.call('/sign-in/anonymous', {})).body.user
    await fillCart(auth, guest.id)
    expect((await tab.call('/sign-up/email', { email: 'ada@example.com', password: PASSWORD, name: 'Ada' })).status).toBe(200)
    const { db } = await auth.$context
    expect(await db.findOne({ model: 'user', where: { field: 'id', value: guest.id } })).not.toBeNull()
    expect((await cartOf(auth, guest.id))?.value).toBe('three books')
  })

  it('two sign-ins racing from one guest browser move the cart once', async () => {
    const auth = guestAuth()
    await signUp(auth, { email: 'ada@example.com' })
    const tab = browser(auth)
    await tab.call('/sign-in/anonymous', {})
    const guestCookie = tab.cookie
    const both = await Promise.all(
      [0, 1].map(async () =>
        // Both requests carry the guest's cookie, as two clicks of one browser do.
        auth.handler(
          new Request('http://localhost:3000/api/auth/sign-in/email', {
            method: 'POST',
            headers: { 'content-type': 'application/json', origin: 'http://localhost:3000', cookie: guestCookie },
            body: JSON.stringify({ email: 'ada@example.com', password: PASSWORD }),
          }),
        ).then((response) => response.status),
      ),
    )
    expect(both).toEqual([200, 200])
    expect(auth.links).toHaveLength(1)
  })

  it('a guest deletes itself; a member cannot use that route', async () => {
    const auth = guestAuth()
    const tab = browser(auth)
    const guest = (await tab.call('/sign-in/anonymous', {})).body.user
    expect((await tab.call('/delete-anonymous-user', {})).body).toEqual({ success: true })
    expect(await tab.session()).toBeNull()
    const { db } = await auth.$context
    expect(await db.findOne({ model: 'user', where: { field: 'id', value: guest.id } })).toBeNull()
    const member = browser(auth)
    await member.call('/sign-up/email', { email: 'ada@example.com', password: PASSWORD, name: 'Ada' })
    expect(await member.call('/delete-anonymous-user', {})).toMatchObject({ status: 403, body: { code: 'USER_IS_NOT_ANONYMOUS' } })
  })

  it('a guest cannot move its placeholder address onto a real one', async () => {
    const auth = guestAuth()
    const tab = browser(auth)
    await tab.call('/sign-in/anonymous', {})
    expect(await tab.call('/change-email', { newEmail: 'ada@example.com' })).toMatchObject({ status: 403, body: { code: 'ANONYMOUS_USERS_CANNOT_CHANGE_EMAIL' } })
  })

  it('cleanup deletes guests older than maxAge, with their sessions; members and young guests stay', async () => {
    const auth = guestAuth({ anonymous: { maxAge: 3600 } })
    const old = browser(auth)
    const oldGuest = (await old.call('/sign-in/anonymous', {})).body.user
    await signUp(auth, { email: 'ada@example.com' })
    auth.clock.advance(3_601_000)
    const young = browser(auth)
    const youngGuest = (await young.call('/sign-in/anonymous', {})).body.user
    await auth.api.cleanup()
    const { db } = await auth.$context
    expect(await db.findOne({ model: 'user', where: { field: 'id', value: oldGuest.id } })).toBeNull()
    expect(await db.count({ model: 'session', where: { field: 'userId', value: oldGuest.id } })).toBe(0)
    expect(await db.findOne({ model: 'user', where: { field: 'id', value: youngGuest.id } })).not.toBeNull()
    expect(await db.findOne({ model: 'user', where: { field: 'email', value: 'ada@example.com' } })).not.toBeNull()
  })

  it('one client makes at most 5 guests a minute', async () => {
    const auth = guestAuth({ rateLimit: true })
    const statuses = []
    for (let index = 0; index < 6; index += 1) statuses.push((await browser(auth, '203.0.113.50').call('/sign-in/anonymous', {})).status)
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429])
  })
})

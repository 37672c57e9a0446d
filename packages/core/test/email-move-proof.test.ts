/**
 * An address an account moved onto by change-email is proven by its owner
 * (docs/security.md#an-address-moved-onto-by-change-email-is-proven-by-its-owner):
 * the attacker moves their verified account onto an unregistered address,
 * confirming from their own old mailbox; the owner of that address opens the
 * verification mail. The account's earlier sessions and password must end.
 */
import { describe, expect, it } from 'vitest'
import { accountAuth, authed, browserAnswer, PASSWORD, signIn, signUp } from './accounts.js'
import { BASE, request } from './helpers.js'

function setup() {
  const changeMails: { url: string }[] = []
  const auth = accountAuth({
    emailAndPassword: { enabled: true, requireEmailVerification: true },
    emailVerification: { autoSignInAfterVerification: true },
    user: {
      changeEmail: {
        enabled: true,
        sendChangeEmailVerification: ({ url }) => {
          changeMails.push({ url })
        },
      },
    },
  })
  return Object.assign(auth, { changeMails })
}

type Auth = ReturnType<typeof setup>

/** Opens a mailed link as a browser holding `cookie` would, without following the redirect. */
async function open(auth: Auth, url: string, cookie = '') {
  const target = new URL(url)
  return browserAnswer(
    await auth.handler(request(`${target.pathname}${target.search}`, { headers: cookie ? { cookie } : {} })),
    cookie,
  )
}

async function sessionUser(auth: Auth, cookie: string) {
  const response = await auth.handler(authed('/api/auth/get-session?disableCookieCache=true', cookie))
  const body = (await response.json()) as { user: { email: string; emailVerified: boolean } } | null
  return body?.user ?? null
}

/** The attacker: a verified account at their own address, signed in, moved onto `target`. */
async function squatByChangeEmail(auth: Auth, target: string) {
  await signUp(auth, { email: 'att@evil.example' })
  const verifyOwn = auth.mailbox.last('verify-email')?.url ?? ''
  await open(auth, verifyOwn)
  const { cookie } = await signIn(auth, { email: 'att@evil.example' })
  const changed = await auth.handler(authed('/api/auth/change-email', cookie, { method: 'POST', json: { newEmail: target } }))
  expect(changed.status).toBe(200)
  // Approved from the attacker's own (old) mailbox, in the attacker's browser.
  const approved = await open(auth, auth.changeMails.at(-1)?.url ?? '', cookie)
  expect(approved.status).toBe(302)
  expect(await sessionUser(auth, cookie)).toMatchObject({ email: target, emailVerified: false })
  return cookie
}

describe('an address moved onto by change-email', () => {
  it("the owner's verification click ends the mover's sessions and password", async () => {
    const auth = setup()
    const attacker = await squatByChangeEmail(auth, 'owner@corp.test')
    const link = auth.mailbox.last('verify-email')
    expect(link?.to).toBe('owner@corp.test')

    // The owner opens it in their own browser, holding no session.
    const owner = await open(auth, link?.url ?? '')
    expect(owner.status).toBe(302)
    expect(await sessionUser(auth, owner.cookie)).toMatchObject({ email: 'owner@corp.test', emailVerified: true })

    expect(await sessionUser(auth, attacker)).toBeNull()
    expect((await signIn(auth, { email: 'owner@corp.test', password: PASSWORD })).response.status).toBe(401)
    const { adapter } = await auth.$context
    const [user] = await adapter.findMany<{ id: string }>({ model: 'user', where: [{ field: 'email', value: 'owner@corp.test' }] })
    const accounts = await adapter.findMany({ model: 'account', where: [{ field: 'userId', value: user?.id ?? '' }] })
    expect(accounts).toEqual([])
  })

  it('the same holds for the unverified path (the address moves at once)', async () => {
    const auth = accountAuth({
      emailVerification: { autoSignInAfterVerification: true },
      user: { changeEmail: { enabled: true } },
    })
    const { cookie: attacker } = await signUp(auth, { email: 'unverified-att@evil.example' })
    const changed = await auth.handler(authed('/api/auth/change-email', attacker, { method: 'POST', json: { newEmail: 'boss@corp.test' } }))
    expect(changed.status).toBe(200)
    const link = auth.mailbox.last('verify-email')
    expect(link?.to).toBe('boss@corp.test')
    const target = new URL(link?.url ?? '')
    const owner = await browserAnswer(await auth.handler(request(`${target.pathname}${target.search}`)))
    expect(owner.status).toBe(302)
    expect(await sessionUser(auth as Auth, attacker)).toBeNull()
    expect((await signIn(auth, { email: 'boss@corp.test', password: PASSWORD })).response.status).toBe(401)
  })

  it('a link the holder opens in their own signed-in browser is their own proof: nothing ends', async () => {
    const auth = setup()
    const holder = await squatByChangeEmail(auth, 'new-home@example.test')
    const link = auth.mailbox.last('verify-email')?.url ?? ''
    const opened = await open(auth, link, holder)
    expect(opened.status).toBe(302)
    expect(await sessionUser(auth, holder)).toMatchObject({ email: 'new-home@example.test', emailVerified: true })
    expect((await signIn(auth, { email: 'new-home@example.test', password: PASSWORD })).response.status).toBe(200)
  })

  it('a verification mail requested again after the move is still the owner’s proof', async () => {
    const auth = setup()
    const attacker = await squatByChangeEmail(auth, 'again@corp.test')
    const resent = await auth.handler(
      authed('/api/auth/send-verification-email', attacker, { method: 'POST', json: { email: 'again@corp.test' } }),
    )
    expect(resent.status).toBe(200)
    const owner = await open(auth, auth.mailbox.last('verify-email')?.url ?? '')
    expect(owner.status).toBe(302)
    expect(await sessionUser(auth, attacker)).toBeNull()
  })

  it('a sign-up verified on another device keeps its password (no move, no proof rule)', async () => {
    const auth = setup()
    await auth.handler(
      request('/api/auth/sign-up/email', { json: { name: 'Ada', email: 'ada@example.com', password: PASSWORD }, headers: { origin: BASE } }),
    )
    await open(auth, auth.mailbox.last('verify-email')?.url ?? '')
    expect((await signIn(auth, { email: 'ada@example.com', password: PASSWORD })).response.status).toBe(200)
  })
})

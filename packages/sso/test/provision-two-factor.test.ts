/**
 * The provider's two-factor policy at the end of an SSO sign-in
 * (services/provision.ts, docs/sso.md#two-factor), with the two-factor plugin
 * set up through its own routes. `require` and a user with two-factor on: the
 * provisioning commits, no session, the two-factor plugin's pending cookie and
 * a redirect to `twoFactorPage?callbackURL=`; the code then creates the session
 * (`fed otp mfa`, `ssoProviderId`). What ends that pending sign-in (a password
 * reset, the provider deleted), the trusted device, `skip`, users without
 * two-factor, no `twoFactorPage`, and no two-factor plugin at all.
 */
import { organization } from '@gatehouse/organization'
import { describe, expect, it } from 'vitest'
import { accountAuth } from '../../core/test/accounts.js'
import { sso } from '../src/plugin.js'
import { makeZone, newUser, post, type TestUser } from './management-fixtures.js'
import {
  call,
  complete,
  completer,
  enrollTwoFactor,
  organizationWithProvider,
  profile,
  provisionAuth,
  rows,
  sessionUser,
  type ProvisionAuth,
} from './provision-fixtures.js'

const PAGE = { sso: { twoFactorPage: '/two-factor' } }

/** An existing user of the provider's domain with two-factor on, not yet linked to the provider. */
async function twoFactorUser(auth: ProvisionAuth, email = 'ada@acme.test'): Promise<TestUser & { code: () => string }> {
  const user = await newUser(auth, { email })
  const { code } = await enrollTwoFactor(auth, user)
  return { ...user, code }
}

describe("'require' and a user with two-factor on", () => {
  it('the provisioning commits but no session: a pending cookie and a 302 to twoFactorPage with the landing as callbackURL', async () => {
    const auth = provisionAuth(PAGE)
    const { org } = await organizationWithProvider(auth, { twoFactor: 'require' })
    const ada = await twoFactorUser(auth)
    const before = await rows(auth, 'ada@acme.test')

    const landed = await complete(auth, 'acme', profile('ada@acme.test'), { landing: { callbackURL: '/dashboard?tab=home' } })
    expect(landed).toMatchObject({ status: 302, error: null, location: '/two-factor?callbackURL=%2Fdashboard%3Ftab%3Dhome' })
    expect(landed.cookiesSet).toEqual(['two_factor'])
    expect(await sessionUser(auth, landed.cookie)).toBeNull()

    const stored = await rows(auth, 'ada@acme.test')
    expect(stored.accounts.map((account) => account.providerId).sort()).toEqual(['acme', 'credential'])
    expect(stored.members).toMatchObject([{ organizationId: org.id, role: 'member' }])
    expect(stored.sessions).toHaveLength(before.sessions.length)

    const verified = await call(auth, '/two-factor/verify-totp', landed.cookie, { code: ada.code() })
    expect(verified).toMatchObject({ status: 200, body: { status: true, token: expect.any(String), user: { id: ada.id } } })
    expect(verified.cookiesSet).toContain('session_token')
    expect((await sessionUser(auth, verified.cookie))?.id).toBe(ada.id)
    const made = (await rows(auth, 'ada@acme.test')).sessions.filter((session) => session.ssoProviderId !== null)
    expect(made).toMatchObject([{ amr: 'fed otp mfa', ssoProviderId: 'acme', twoFactorMethod: 'totp' }])
  })

  it('a password reset between the SSO step and the code ends it: NO_PENDING_SIGN_IN, no session', async () => {
    const auth = provisionAuth(PAGE)
    await organizationWithProvider(auth, { twoFactor: 'require' })
    const ada = await twoFactorUser(auth)
    const landed = await complete(auth, 'acme', profile('ada@acme.test'))
    expect(landed.cookiesSet).toEqual(['two_factor'])

    expect((await call(auth, '/request-password-reset', '', { email: ada.email })).status).toBe(200)
    const token = auth.mailbox.last('reset-password')?.token as string
    expect((await call(auth, '/reset-password', '', { token, newPassword: 'a brand new password' })).status).toBe(200)

    const verified = await call(auth, '/two-factor/verify-totp', landed.cookie, { code: ada.code() })
    expect(verified).toMatchObject({ status: 401, body: { code: 'NO_PENDING_SIGN_IN' } })
    expect(verified.cookiesSet).not.toContain('session_token')
    expect((await rows(auth, 'ada@acme.test')).sessions.filter((session) => session.ssoProviderId !== null)).toEqual([])
  })

  it('the provider deleted between the SSO step and the code: no session names it (SSO_PROVIDER_GONE)', async () => {
    const auth = provisionAuth(PAGE)
    const { owner } = await organizationWithProvider(auth, { twoFactor: 'require' })
    const ada = await twoFactorUser(auth)
    const landed = await complete(auth, 'acme', profile('ada@acme.test'))
    expect((await post(auth, 'delete-provider', owner, { providerId: 'acme' })).status).toBe(200)

    const verified = await call(auth, '/two-factor/verify-totp', landed.cookie, { code: ada.code() })
    expect(verified).toMatchObject({ status: 401, body: { code: 'SSO_PROVIDER_GONE' } })
    expect(verified.cookiesSet).not.toContain('session_token')
    expect((await rows(auth, 'ada@acme.test')).sessions.filter((session) => session.ssoProviderId !== null)).toEqual([])
  })

  it('a device the user trusted after a code skips the step, as for a password sign-in: a session with amr fed only', async () => {
    const auth = provisionAuth(PAGE)
    await organizationWithProvider(auth, { twoFactor: 'require' })
    const ada = await twoFactorUser(auth)
    const first = await complete(auth, 'acme', profile('ada@acme.test'))
    const trusted = await call(auth, '/two-factor/verify-totp', first.cookie, { code: ada.code(), trustDevice: true })
    expect(trusted.cookiesSet).toContain('trust_device')
    const trust = trusted.cookie.split('; ').find((pair) => pair.startsWith('gatehouse.trust_device=')) as string

    const again = await complete(auth, 'acme', profile('ada@acme.test'), { cookie: trust })
    expect(again).toMatchObject({ status: 302, location: '/dashboard', error: null })
    expect(again.cookiesSet).toContain('session_token')
    expect(again.cookiesSet).not.toContain('two_factor')
    expect((await rows(auth, 'ada@acme.test')).sessions.at(-1)).toMatchObject({ amr: 'fed', ssoProviderId: 'acme', twoFactorMethod: null })
  })

  it('without twoFactorPage there is nowhere to ask for the code: refused (two_factor_required), nothing written', async () => {
    const auth = provisionAuth()
    await organizationWithProvider(auth, { twoFactor: 'require' })
    await twoFactorUser(auth)
    const landed = await complete(auth, 'acme', profile('ada@acme.test'))
    expect(landed).toMatchObject({ error: 'two_factor_required', cookie: '' })
    expect(landed.location.startsWith('/sign-in?')).toBe(true)
    expect((await rows(auth, 'ada@acme.test')).accounts.map((account) => account.providerId)).toEqual(['credential'])
  })
})

describe('sign-ins the policy lets through', () => {
  it("'skip' (the default) signs a user with two-factor on in at once, amr fed", async () => {
    const auth = provisionAuth(PAGE)
    await organizationWithProvider(auth)
    const ada = await twoFactorUser(auth)
    const landed = await complete(auth, 'acme', profile('ada@acme.test'))
    expect(landed).toMatchObject({ status: 302, location: '/dashboard', error: null })
    expect(landed.cookiesSet).not.toContain('two_factor')
    expect((await sessionUser(auth, landed.cookie))?.id).toBe(ada.id)
    expect((await rows(auth, 'ada@acme.test')).sessions.at(-1)).toMatchObject({ amr: 'fed', ssoProviderId: 'acme' })
  })

  it("'require' asks nothing of a user without two-factor, nor of a new one", async () => {
    const auth = provisionAuth(PAGE)
    await organizationWithProvider(auth, { twoFactor: 'require' })
    const bo = await newUser(auth, { email: 'bo@acme.test' })
    const existing = await complete(auth, 'acme', profile('bo@acme.test'))
    expect(existing).toMatchObject({ status: 302, location: '/dashboard', error: null })
    expect((await sessionUser(auth, existing.cookie))?.id).toBe(bo.id)
    const created = await complete(auth, 'acme', profile('new@acme.test'))
    expect(created).toMatchObject({ status: 302, location: '/welcome', error: null })
    expect((await rows(auth, 'new@acme.test')).sessions).toMatchObject([{ amr: 'fed', ssoProviderId: 'acme' }])
  })

  it("without the two-factor plugin nobody can have it on: 'require' signs in as there is nothing to ask", async () => {
    const zone = makeZone()
    const auth = Object.assign(
      accountAuth({ plugins: [organization(), sso({ domainVerification: { resolveTxt: zone.resolveTxt } }), completer] }),
      { zone },
    ) as unknown as ProvisionAuth
    await organizationWithProvider(auth, { twoFactor: 'require' })
    const bo = await newUser(auth, { email: 'bo@acme.test' })
    const landed = await complete(auth, 'acme', profile('bo@acme.test'))
    expect(landed).toMatchObject({ status: 302, location: '/dashboard', error: null })
    expect((await sessionUser(auth, landed.cookie))?.id).toBe(bo.id)
  })
})

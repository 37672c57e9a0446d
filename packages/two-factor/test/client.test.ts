// @vitest-environment jsdom
/**
 * The client half against a real in-process server with the plugin: the
 * route table matches the server; a tour of every route through
 * `client.twoFactor.*` (enable, confirm, sign out, sign in answering
 * `twoFactorRedirect`, verify, backup codes, choosing email codes, email
 * codes, disable), with
 * the session store following; errors keep the catalogue's code.
 */
import { createAuthClient } from '@gatehouse/react'
import { describe, expect, it } from 'vitest'
import { BASE } from '../../core/test/helpers.js'
import { browser } from '../../react/test/browser.js'
import { expectTableMatches, routeTour } from '../../react/test/routes.js'
import { isTwoFactorRedirect, twoFactorClient, twoFactorRoutes } from '../src/client.js'
import { resolveTwoFactorOptions } from '../src/options.js'
import { twoFactorEndpoints } from '../src/routes/index.js'
import { appCode, PASSWORD, secretOf, twoFactorAuth, type TwoFactorAuth } from './fixtures.js'

function clientOf(auth: TwoFactorAuth) {
  return createAuthClient<typeof auth>({ baseURL: BASE, fetch: browser(auth).fetch, plugins: [twoFactorClient()] })
}

describe('two-factor route table', () => {
  it('matches the server: every endpoint, paths and methods', () => {
    expectTableMatches(twoFactorRoutes, twoFactorEndpoints(resolveTwoFactorOptions()), {})
  })
})

describe('client.twoFactor', () => {
  it('a tour of every route, with the session store following', async () => {
    const auth = twoFactorAuth()
    const client = clientOf(auth)
    const { ok, expectComplete } = routeTour()
    await ok('signUp.email', client.signUp.email({ name: 'Ada', email: 'ada@example.com', password: PASSWORD }))
    const enabled = await ok('enable', client.twoFactor.enable({ password: PASSWORD }))
    expect(enabled.backupCodes).toHaveLength(10)
    const secret = secretOf(enabled.totpURI)
    expect(secretOf((await ok('getTotpUri', client.twoFactor.getTotpUri({ password: PASSWORD }))).totpURI)).toEqual(secret)
    const confirmed = await ok('verifyTotp', client.twoFactor.verifyTotp({ code: appCode(secret, auth.clock.now()) }))
    expect(confirmed).toMatchObject({ status: true, token: null })
    expect(confirmed.user.createdAt).toBeInstanceOf(Date)
    await client.$stores.session.refetch()
    expect(client.$stores.session.getSnapshot().data?.user).toMatchObject({ twoFactorEnabled: true })
    const regenerated = await ok('generateBackupCodes', client.twoFactor.generateBackupCodes({ password: PASSWORD }))

    await ok('signOut', client.signOut())
    auth.clock.advance(30_000)
    const signIn = await client.signIn.email({ email: 'ada@example.com', password: PASSWORD })
    expect(signIn.error).toBeNull()
    expect(isTwoFactorRedirect(signIn.data)).toBe(true)
    expect((await client.getSession()).data).toBeNull()
    const wrong = await client.twoFactor.verifyTotp({ code: '000000' })
    expect(wrong.error).toMatchObject({ status: 401, code: 'INVALID_CODE', message: 'Invalid code' })
    const verified = await ok('verifyTotp', client.twoFactor.verifyTotp({ code: appCode(secret, auth.clock.now()), trustDevice: false }))
    expect(verified.token).toEqual(expect.any(String))
    expect((await client.getSession()).data?.user.email).toBe('ada@example.com')

    await ok('signOut', client.signOut())
    await client.signIn.email({ email: 'ada@example.com', password: PASSWORD })
    await ok('verifyBackupCode', client.twoFactor.verifyBackupCode({ code: regenerated.backupCodes[0] as string }))
    // Emailed codes are chosen on a session that passed a backup code (proof); a session of an emailed code is none.
    await ok('enableOtp', client.twoFactor.enableOtp({ password: PASSWORD }))
    await ok('signOut', client.signOut())
    await client.signIn.email({ email: 'ada@example.com', password: PASSWORD })
    await ok('sendOtp', client.twoFactor.sendOtp())
    await ok('verifyOtp', client.twoFactor.verifyOtp({ code: auth.lastOtp() }))
    expect((await client.getSession()).data?.user.email).toBe('ada@example.com')

    const unproven = await client.twoFactor.disable({ password: PASSWORD })
    expect(unproven.error).toMatchObject({ status: 403, code: 'TWO_FACTOR_PROOF_REQUIRED' })
    await ok('disableOtp', client.twoFactor.disableOtp({ password: PASSWORD }))
    await ok('disable', client.twoFactor.disable({ password: PASSWORD, code: regenerated.backupCodes[1] as string }))
    await client.$stores.session.refetch()
    expect(client.$stores.session.getSnapshot().data?.user).toMatchObject({ twoFactorEnabled: false })
    expectComplete(Object.keys(twoFactorRoutes.twoFactor))
  })

  it('a sign-in without two-factor is not a redirect', async () => {
    const auth = twoFactorAuth()
    const client = clientOf(auth)
    await client.signUp.email({ name: 'Ada', email: 'ada@example.com', password: PASSWORD })
    await client.signOut()
    const { data } = await client.signIn.email({ email: 'ada@example.com', password: PASSWORD })
    expect(isTwoFactorRedirect(data)).toBe(false)
    expect(data !== null && !isTwoFactorRedirect(data) ? data.token : null).toEqual(expect.any(String))
  })
})

/**
 * Core's client routes: the table matches the server's endpoints (paths,
 * methods, nothing server-only), and every route's shape accepts what the
 * real server answers, with every Date revived.
 */
import { describe, expect, it } from 'vitest'
import { coreEndpoints } from '../../core/src/routes/index.js'
import { coreRoutes } from '../src/client/core-routes.js'
import { createAuthClient } from '../src/client/index.js'
import { browser } from './browser.js'
import { BASE, email, PASSWORD, setup } from './fixtures.js'
import { expectTableMatches, routeTour } from './routes.js'

describe('core route table', () => {
  it('matches the server: paths, methods, and no server-only endpoint', () => {
    expectTableMatches(coreRoutes, coreEndpoints, {
      ok: 'a liveness route for load balancers',
      error: 'an HTML page',
      resetPasswordCallback: 'the reset mail link: it only redirects',
      callbackOAuth: 'the provider sends the browser there',
      callbackOAuthPost: "the provider's form post (Apple)",
      verifyEmailPost: "posted by the verification link's confirmation page",
    })
    expect(coreEndpoints.setPassword.serverOnly).toBe(true)
    expect(Object.keys(coreRoutes)).not.toContain('setPassword')
  })
})

describe('every core route answers the shape the client expects', () => {
  it('a tour of the account routes', async () => {
    const context = setup()
    const { server } = context
    const client = createAuthClient<typeof server>({ baseURL: BASE, fetch: context.browser.fetch })
    const otherBrowser = browser(server)
    const other = createAuthClient<typeof server>({ baseURL: BASE, fetch: otherBrowser.fetch })
    const { ok, expectComplete, answers } = routeTour()

    const address = email()
    await ok('signUp.email', client.signUp.email({ name: 'Ada', email: address, password: PASSWORD, seats: 2, birthday: new Date(0) }))
    const current = await ok('getSession', client.getSession())
    await ok('signIn.email', other.signIn.email({ email: address, password: PASSWORD }))
    const sessions = await ok('listSessions', client.listSessions())
    expect(sessions).toHaveLength(2)
    const othersToken = sessions.find((session) => session.token !== current?.session.token)?.token ?? ''
    await ok('revokeSession', client.revokeSession({ token: othersToken }))
    expect((await other.getSession()).data).toBeNull()
    // The session handed to the other browser by a one-time token: the same session, read there.
    const { token: oneTime } = await ok('oneTimeToken.generate', client.oneTimeToken.generate())
    const handed = await ok('oneTimeToken.verify', other.oneTimeToken.verify({ token: oneTime }))
    expect(handed.session.id).toBe(current?.session.id)

    await ok('updateUser', client.updateUser({ name: 'Ada Lovelace', plan: 'team' }))
    const newAddress = email()
    await ok('changeEmail', client.changeEmail({ newEmail: newAddress }))
    await ok('sendVerificationEmail', client.sendVerificationEmail({ email: newAddress }))
    const verified = await ok('verifyEmail', client.verifyEmail({ token: server.mailbox.last('verify-email')?.token ?? '' }))
    expect(verified.user).toMatchObject({ email: newAddress, emailVerified: true, name: 'Ada Lovelace', plan: 'team' })

    const changed = await ok(
      'changePassword',
      client.changePassword({ currentPassword: PASSWORD, newPassword: `${PASSWORD}!`, revokeOtherSessions: true }),
    )
    expect(typeof changed.token).toBe('string')
    const accounts = await ok('listAccounts', client.listAccounts())
    expect(accounts.map((account) => account.provider)).toEqual(['credential'])
    // Unlinking needs a second account, which this server cannot link: the answer is still the catalogue's.
    expect((await client.unlinkAccount({ providerId: 'credential' })).error).toEqual({
      status: 400,
      code: 'FAILED_TO_UNLINK_LAST_ACCOUNT',
      message: "You can't unlink your last account",
    })
    await ok('requestPasswordReset', client.requestPasswordReset({ email: newAddress }))
    await ok('forgetPassword', client.forgetPassword({ email: newAddress }))
    await ok('resetPassword', client.resetPassword({ newPassword: PASSWORD, token: server.mailbox.last('reset-password')?.token ?? '' }))
    // The reset signed every session out (docs/accounts.md#password-reset): sign in again.
    expect((await client.getSession()).data).toBeNull()
    await ok('signIn.email', client.signIn.email({ email: newAddress, password: PASSWORD }))
    await ok('revokeOtherSessions', client.revokeOtherSessions())
    await ok('revokeSessions', client.revokeSessions())
    expect((await client.getSession()).data).toBeNull()
    await ok('signIn.email', client.signIn.email({ email: newAddress, password: PASSWORD }))
    expect(await client.deleteUser({ password: PASSWORD })).toEqual({ data: { success: true, message: 'User deleted' }, error: null })
    await ok('signOut', client.signOut())

    // A deletion link is mailed only when deletion mails are configured, and acts only for its signed-in owner.
    expect((await client.deleteUserCallback({ token: 'unknown' })).error).toEqual({ status: 401, code: 'UNAUTHORIZED', message: 'Unauthorized' })

    expectComplete([], ['birthday'])
    expect(answers.length).toBeGreaterThanOrEqual(18)
  })
})

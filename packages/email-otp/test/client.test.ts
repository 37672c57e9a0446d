/**
 * The client half beside core's routes: every name it adds is free (the
 * client refuses a plugin group under a name a core call holds), and a
 * sign-in by code drives the session store.
 */
import { createAuthClient } from '@gatehouse/react/client'
import { describe, expect, it } from 'vitest'
import { emailOTPClient } from '../src/client.js'
import { codeAuth } from './fixtures.js'

describe('emailOTPClient()', () => {
  it('mounts beside core, and a code signs in through it', async () => {
    const auth = codeAuth()
    let cookie = ''
    const client = createAuthClient({
      baseURL: 'http://localhost:3000',
      plugins: [emailOTPClient()],
      fetch: async (input, init) => {
        const request = new Request(input, init)
        const headers = new Headers(request.headers)
        if (cookie) headers.set('cookie', cookie)
        headers.set('origin', 'http://localhost:3000')
        const response = await auth.handler(new Request(request, { headers }))
        const set = response.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ')
        if (set) cookie = set
        return response
      },
    })
    expect(typeof client.forgetPassword).toBe('function')
    expect((await client.emailOtp.sendVerificationOtp({ email: 'ada@example.com', type: 'sign-in' })).data).toEqual({ success: true })
    const otp = (await auth.codeFor('ada@example.com'))!
    const signedIn = await client.signIn.emailOtp({ email: 'ada@example.com', otp })
    expect(signedIn.error).toBeNull()
    expect((await client.getSession()).data?.user.email).toBe('ada@example.com')
  })
})

import { describe, expect, it } from 'vitest'
import { signUp } from '../../core/test/accounts.js'
import { appCode, enroll, twoFactorAuth } from '../../two-factor/test/fixtures.js'
import { normalizePhoneNumber } from '../src/numbers.js'
import { phoneNumber } from '../src/plugin.js'
import { ADA_PHONE, GRACE_PHONE, otherCode, PASSWORD, phoneAuth, post, textCode, userWithPhone } from './fixtures.js'

describe('numbers', () => {
  it('are stored in E.164 whatever the notation; invalid and huge ones are refused', async () => {
    const options = { defaultCountry: 'US' as const, phoneNumberValidator: null }
    expect(await normalizePhoneNumber(options, '+1 (415) 555-0100')).toBe(ADA_PHONE)
    expect(await normalizePhoneNumber(options, '(415) 555-0100')).toBe(ADA_PHONE)
    await expect(normalizePhoneNumber({ defaultCountry: undefined, phoneNumberValidator: null }, '(415) 555-0100')).rejects.toMatchObject({ code: 'INVALID_PHONE_NUMBER' })
    await expect(normalizePhoneNumber(options, '12345')).rejects.toMatchObject({ code: 'INVALID_PHONE_NUMBER' })
    await expect(normalizePhoneNumber(options, '+1'.padEnd(100_000, '5'))).rejects.toMatchObject({ code: 'INVALID_PHONE_NUMBER' })
    await expect(normalizePhoneNumber({ ...options, phoneNumberValidator: (number) => number.startsWith('+33') }, ADA_PHONE)).rejects.toMatchObject({ code: 'INVALID_PHONE_NUMBER' })
  })

  it('cannot be set by sign-up or update-user: only by proving the number', async () => {
    const auth = phoneAuth()
    expect((await post(auth, '/sign-up/email', { email: 'ada@example.com', password: PASSWORD, name: 'Ada', phoneNumber: ADA_PHONE })).body.code).toBe('PHONE_NUMBER_CANNOT_BE_UPDATED')
    const ada = await signUp(auth, { email: 'ada@example.com' })
    expect((await post(auth, '/update-user', { phoneNumber: ADA_PHONE }, ada.cookie)).body.code).toBe('PHONE_NUMBER_CANNOT_BE_UPDATED')
    expect(await userWithPhone(auth, ADA_PHONE)).toBeNull()
  })
})

describe('verifying a number', () => {
  it('signs up a new number (with signUpOnVerification) and signs it in; the session records the SMS', async () => {
    const auth = phoneAuth()
    const code = await textCode(auth, '+1 415 555 0100')
    expect(code).toMatch(/^\d{6}$/)
    const answer = await post(auth, '/phone-number/verify', { phoneNumber: ADA_PHONE, code })
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({ status: true, token: expect.any(String), user: { phoneNumber: ADA_PHONE, phoneNumberVerified: true, emailVerified: false } })
    const { db } = await auth.$context
    const sessions = await db.findMany<Record<string, unknown>>({ model: 'session', where: { field: 'userId', value: answer.body.user.id } })
    expect(sessions.map((row) => row.amr)).toEqual(['sms'])
  })

  it('without signUpOnVerification an unknown number is not an account', async () => {
    const auth = phoneAuth({ phoneNumber: { signUpOnVerification: undefined } })
    const code = await textCode(auth, ADA_PHONE)
    expect(await post(auth, '/phone-number/verify', { phoneNumber: ADA_PHONE, code })).toMatchObject({ status: 400, body: { code: 'PHONE_NUMBER_NOT_EXIST' } })
  })

  it('adds the number to the signed-in account; a number another account holds is refused', async () => {
    const auth = phoneAuth()
    const ada = await signUp(auth, { email: 'ada@example.com' })
    const added = await post(auth, '/phone-number/verify', { phoneNumber: ADA_PHONE, code: await textCode(auth, ADA_PHONE), updatePhoneNumber: true }, ada.cookie)
    expect(added.body).toMatchObject({ status: true, token: null, user: { phoneNumber: ADA_PHONE, phoneNumberVerified: true } })
    expect((await auth.api.getSession({ headers: new Headers({ cookie: added.cookie }) }))?.user).toMatchObject({ phoneNumber: ADA_PHONE })
    const grace = await signUp(auth, { email: 'grace@example.com' })
    const stolen = await post(auth, '/phone-number/verify', { phoneNumber: ADA_PHONE, code: await textCode(auth, ADA_PHONE), updatePhoneNumber: true }, grace.cookie)
    expect(stolen).toMatchObject({ status: 400, body: { code: 'PHONE_NUMBER_EXIST' } })
    expect((await post(auth, '/phone-number/verify', { phoneNumber: GRACE_PHONE, code: '123456', updatePhoneNumber: true })).status).toBe(401)
  })

  it('three wrong codes void the code; twenty parallel right ones make one session', async () => {
    const auth = phoneAuth()
    const code = await textCode(auth, ADA_PHONE)
    const tries = []
    for (const attempt of [otherCode(code), otherCode(code), otherCode(code), code]) tries.push((await post(auth, '/phone-number/verify', { phoneNumber: ADA_PHONE, code: attempt })).body.code)
    expect(tries).toEqual(['INVALID_OTP', 'INVALID_OTP', 'TOO_MANY_ATTEMPTS', 'INVALID_OTP'])
    auth.clock.advance(60_000)
    const fresh = await textCode(auth, ADA_PHONE)
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(auth, '/phone-number/verify', { phoneNumber: ADA_PHONE, code: fresh })))
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1)
  })

  it('a number gets 3 codes a minute whichever clients ask', async () => {
    const auth = phoneAuth({ core: { rateLimit: { enabled: true } } })
    const statuses = []
    for (let index = 0; index < 4; index += 1) statuses.push((await post(auth, '/phone-number/send-otp', { phoneNumber: ADA_PHONE }, '', { 'x-forwarded-for': `198.51.100.${index + 1}` })).status)
    expect(statuses).toEqual([200, 200, 200, 429])
  })

  it('a code never stands in for the second factor an account enrolled', async () => {
    const texts: { phoneNumber: string; code: string }[] = []
    const auth = twoFactorAuth({}, {}, [phoneNumber({ sendOTP: (sms) => void texts.push(sms) })])
    const enrolled = await enroll(auth)
    const { db } = await auth.$context
    await db.update({ model: 'user', where: { field: 'id', value: enrolled.userId }, update: { phoneNumber: ADA_PHONE, phoneNumberVerified: true } })
    await post(auth, '/phone-number/send-otp', { phoneNumber: ADA_PHONE })
    const first = await post(auth, '/phone-number/verify', { phoneNumber: ADA_PHONE, code: texts.at(-1)!.code })
    expect(first).toMatchObject({ status: 200, body: { twoFactorRedirect: true } })
    expect(first.setCookies.some((line) => line.includes('session_token='))).toBe(false)
    const second = await post(auth, '/two-factor/verify-totp', { code: appCode(enrolled.secret, auth.clock.now()) }, first.cookie)
    expect(second.status).toBe(200)
    const sessions = await db.findMany<Record<string, unknown>>({ model: 'session', where: { field: 'userId', value: enrolled.userId } })
    expect(sessions.map((row) => row.amr)).toContain('sms otp mfa')
  })
})

describe('password by phone number', () => {
  async function adaWithPhone() {
    const auth = phoneAuth()
    const ada = await signUp(auth, { email: 'ada@example.com' })
    await post(auth, '/phone-number/verify', { phoneNumber: ADA_PHONE, code: await textCode(auth, ADA_PHONE), updatePhoneNumber: true }, ada.cookie)
    auth.clock.advance(60_000)
    return { auth, ada }
  }

  it('signs in with the number and password; an unknown number and a wrong password answer alike', async () => {
    const { auth } = await adaWithPhone()
    const answer = await post(auth, '/sign-in/phone-number', { phoneNumber: '+1 415-555-0100', password: PASSWORD })
    expect(answer).toMatchObject({ status: 200, body: { token: expect.any(String), user: { email: 'ada@example.com' } } })
    const wrong = await post(auth, '/sign-in/phone-number', { phoneNumber: ADA_PHONE, password: 'not the password' })
    const unknown = await post(auth, '/sign-in/phone-number', { phoneNumber: GRACE_PHONE, password: PASSWORD })
    expect(wrong).toMatchObject({ status: 401, body: { code: 'INVALID_PHONE_NUMBER_OR_PASSWORD' } })
    expect(unknown.body).toEqual(wrong.body)
  })

  it('a reset code goes to a held number only (same answer for others); the reset ends every session and leaves the address unverified', async () => {
    const { auth, ada } = await adaWithPhone()
    const known = await post(auth, '/phone-number/request-password-reset', { phoneNumber: ADA_PHONE })
    const unknown = await post(auth, '/phone-number/request-password-reset', { phoneNumber: GRACE_PHONE })
    expect(unknown.body).toEqual(known.body)
    const code = await auth.codeFor(ADA_PHONE, 'reset')
    expect(await auth.codeFor(GRACE_PHONE, 'reset')).toBeUndefined()
    const verifyCode = await textCode(auth, GRACE_PHONE)
    expect((await post(auth, '/phone-number/reset-password', { phoneNumber: ADA_PHONE, otp: verifyCode, newPassword: 'a new password here' })).body.code).toBe('INVALID_OTP')
    const reset = await post(auth, '/phone-number/reset-password', { phoneNumber: ADA_PHONE, otp: code, newPassword: 'a new password here' })
    expect(reset.body).toEqual({ status: true })
    expect(await auth.api.getSession({ headers: new Headers({ cookie: ada.cookie }) })).toBeNull()
    expect((await post(auth, '/sign-in/phone-number', { phoneNumber: ADA_PHONE, password: 'a new password here' })).status).toBe(200)
    expect((await userWithPhone(auth, ADA_PHONE))?.emailVerified).toBe(false)
  })

  it('without sendPasswordResetOTP the reset routes answer 404', async () => {
    const auth = phoneAuth({ phoneNumber: { sendPasswordResetOTP: undefined } })
    expect((await post(auth, '/phone-number/request-password-reset', { phoneNumber: ADA_PHONE })).status).toBe(404)
    expect((await post(auth, '/phone-number/reset-password', { phoneNumber: ADA_PHONE, otp: '123456', newPassword: 'whatever password' })).status).toBe(404)
  })
})

/**
 * The example server's two-factor over real HTTP: a user turns TOTP on,
 * turns emailed codes on, signs in again (the password step answers
 * `twoFactorRedirect`), asks for an emailed code and signs in with it. The code reaches MAIL_LOG as one
 * JSON line of type `two-factor` with the code in `otp` (README.md#mail).
 */
import { createHmac } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningServer } from '../src/server.js'
import { caller, startExample } from './harness.js'

/** An authenticator app's 6-digit code (RFC 6238 with HMAC-SHA1) for the base32 secret of an otpauth URI. */
function totp(totpURI: string, now = Date.now()): string {
  const text = (new URL(totpURI).searchParams.get('secret') ?? '').replace(/=+$/, '')
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
  let bits = ''
  for (const char of text) bits += alphabet.indexOf(char).toString(2).padStart(5, '0')
  const key = Buffer.from(bits.match(/.{8}/g)?.map((byte) => Number.parseInt(byte, 2)) ?? [])
  const counter = Buffer.alloc(8)
  counter.writeBigUInt64BE(BigInt(Math.floor(now / 30_000)))
  const mac = createHmac('sha1', key).update(counter).digest()
  const start = (mac[mac.length - 1] as number) & 0x0f
  return String((mac.readUInt32BE(start) & 0x7fffffff) % 1_000_000).padStart(6, '0')
}

/** Cookies a browser holds after `response`: earlier ones updated, cleared ones dropped. */
function jar(previous: string, response: Response): string {
  const cookies = new Map(previous.split('; ').filter(Boolean).map((pair) => [pair.slice(0, pair.indexOf('=')), pair] as const))
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(';')[0] as string
    const name = pair.slice(0, pair.indexOf('='))
    if (pair.endsWith('=') || /max-age=0/i.test(line)) cookies.delete(name)
    else cookies.set(name, pair)
  }
  return [...cookies.values()].join('; ')
}

describe('two-factor on the example server', () => {
  let dir = ''
  let server: RunningServer
  let mailLog = ''

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gatehouse-two-factor-'))
    mailLog = join(dir, 'mail.jsonl')
    server = await startExample(dir, { MAIL_LOG: mailLog, RATE_LIMIT: '0' })
  })
  afterAll(async () => {
    await server?.close()
    await rm(dir, { recursive: true, force: true })
  })

  const call = caller(() => server)

  it('mails the code as a MAIL_LOG line of type two-factor with an otp field, which signs in', async () => {
    const email = 'second-factor@example.com'
    const password = 'correct horse battery'
    const signedUp = await call('/api/auth/sign-up/email', { json: { name: 'Ada', email, password } })
    expect(signedUp.status).toBe(200)
    let cookie = jar('', signedUp)
    const enabled = await call('/api/auth/two-factor/enable', { json: { password }, cookie })
    expect(enabled.status).toBe(200)
    const { totpURI } = (await enabled.json()) as { totpURI: string }
    const confirmed = await call('/api/auth/two-factor/verify-totp', { json: { code: totp(totpURI) }, cookie })
    expect(confirmed.status).toBe(200)
    cookie = jar(cookie, confirmed)
    // Emailed codes are a way in the user chooses, with proof of the second factor: here the confirming code (docs/two-factor.md#email-codes).
    expect((await call('/api/auth/two-factor/enable-otp', { json: { password }, cookie })).status).toBe(200)
    await call('/api/auth/sign-out', { json: {}, cookie })

    const pending = await call('/api/auth/sign-in/email', { json: { email, password } })
    expect(await pending.json()).toEqual({ twoFactorRedirect: true })
    cookie = jar('', pending)
    expect(cookie).toMatch(/two_factor=/)
    expect((await call('/api/auth/two-factor/send-otp', { json: {}, cookie })).status).toBe(200)

    const lines = (await readFile(mailLog, 'utf8')).split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>)
    const mail = lines.filter((line) => line.type === 'two-factor').at(-1)
    expect(mail).toEqual({
      type: 'two-factor',
      to: email,
      subject: 'Your sign-in code',
      url: `${server.url}/two-factor`,
      otp: expect.stringMatching(/^[0-9]{6}$/),
    })
    // The other mail types keep their shape: no otp field on them.
    expect(lines.filter((line) => line.type !== 'two-factor').every((line) => !('otp' in line))).toBe(true)

    const verified = await call('/api/auth/two-factor/verify-otp', { json: { code: mail?.otp }, cookie })
    expect(verified.status).toBe(200)
    cookie = jar(cookie, verified)
    const session = (await (await call('/api/auth/get-session', { cookie })).json()) as { user: { email: string; twoFactorEnabled: boolean } }
    expect(session.user).toMatchObject({ email, twoFactorEnabled: true })
  })

  it('tells the owner of a lockout as a MAIL_LOG line of type two-factor-lockout, without a code', async () => {
    const email = 'locked-out@example.com'
    const password = 'correct horse battery'
    const signedUp = await call('/api/auth/sign-up/email', { json: { name: 'Ada', email, password } })
    const cookie = jar('', signedUp)
    const { totpURI } = (await (await call('/api/auth/two-factor/enable', { json: { password }, cookie })).json()) as { totpURI: string }
    expect((await call('/api/auth/two-factor/verify-totp', { json: { code: totp(totpURI) }, cookie })).status).toBe(200)

    const pending = jar('', await call('/api/auth/sign-in/email', { json: { email, password } }))
    const wrong = totp(totpURI) === '000000' ? '111111' : '000000'
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await call('/api/auth/two-factor/verify-totp', { json: { code: wrong }, cookie: pending })).status).toBe(401)
    }
    const lines = (await readFile(mailLog, 'utf8')).split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(lines.filter((line) => line.type === 'two-factor-lockout' && line.to === email)).toEqual([
      {
        type: 'two-factor-lockout',
        to: email,
        subject: 'Too many wrong sign-in codes: if this was not you, change your password',
        url: `${server.url}/forgot-password`,
        factor: 'totp',
        until: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      },
    ])
  })
})

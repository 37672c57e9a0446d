/**
 * The example server end to end over real HTTP: the API below /api/auth, the
 * outbox lines in MAIL_LOG that black-box harnesses follow, redirects for
 * the links a browser opens, and a prompt stop. The last block starts the
 * built server exactly as harnesses do (`node dist/main.js`) when it has been built.
 */
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { customer, envelope } from '../../../packages/billing/test/fixtures/payloads.js'
import { sign } from '../../../packages/billing/test/fixtures/harness.js'
import type { RunningServer } from '../src/server.js'
import { builtMain, caller, cookiesOf, freePort, runBuilt, startExample } from './harness.js'

interface MailLine {
  type: string
  to: string
  subject: string
  url: string
  token?: string
  invitationId?: string
}

async function mails(path: string): Promise<MailLine[]> {
  const text = await readFile(path, 'utf8').catch(() => '')
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as MailLine)
}

describe('example server', () => {
  let dir = ''
  let server: RunningServer
  let mailLog = ''
  let webhookLog = ''
  const printed: string[] = []
  const secret = `whsec_${Buffer.from('example-server-webhook-secret-32b').toString('base64')}`

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gatehouse-example-'))
    mailLog = join(dir, 'mail.jsonl')
    webhookLog = join(dir, 'hooks', 'webhooks.jsonl')
    server = await startExample(
      dir,
      { DATABASE_PATH: join(dir, 'db', 'auth.db'), MAIL_LOG: mailLog, WEBHOOK_LOG: webhookLog, BILLING_WEBHOOK_SECRET: secret, RATE_LIMIT: '0' },
      { print: (line) => printed.push(line) },
    )
  })
  afterAll(async () => {
    await server?.close()
    await rm(dir, { recursive: true, force: true })
  })

  const call = caller(() => server)

  it('is ready when /api/auth/ok answers', async () => {
    const response = await call('/api/auth/ok')
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ ok: true })
  })

  it('mails the verification link at sign-up; opening it verifies, signs in and redirects', async () => {
    const signUp = await call('/api/auth/sign-up/email', { json: { name: 'Ada', email: 'ada@example.com', password: 'correct horse battery' } })
    expect(signUp.status).toBe(200)
    const body = (await signUp.json()) as { user: { emailVerified: boolean } }
    expect(body.user.emailVerified).toBe(false)

    const [mail] = await mails(mailLog)
    expect(mail).toMatchObject({ type: 'verify-email', to: 'ada@example.com', subject: 'Verify your email address' })
    expect(mail?.token).toMatch(/^eyJ/)
    expect(new URL(mail?.url ?? '').searchParams.get('token')).toBe(mail?.token)
    expect(printed.some((line) => line.includes(mail?.url ?? '?'))).toBe(true)

    const opened = await call(new URL(mail?.url ?? '').pathname + new URL(mail?.url ?? '').search)
    expect(opened.status).toBe(302)
    expect(opened.headers.get('location')).toBe('/')
    const session = await call('/api/auth/get-session', { cookie: cookiesOf(opened) })
    expect(await session.json()).toMatchObject({ user: { email: 'ada@example.com', emailVerified: true } })
  })

  it('answers JSON errors with the documented message', async () => {
    const response = await call('/api/auth/sign-in/email', { json: { email: 'ada@example.com', password: 'wrong password!' } })
    expect(response.status).toBe(401)
    expect(await response.json()).toMatchObject({ message: 'Invalid email or password' })
  })

  it('mails reset links that redirect with the token, and invitations with their id', async () => {
    const reset = await call('/api/auth/request-password-reset', { json: { email: 'ada@example.com', redirectTo: '/reset-password' } })
    expect(reset.status).toBe(200)
    const resetMail = (await mails(mailLog)).find((line) => line.type === 'reset-password')
    expect(resetMail).toMatchObject({ to: 'ada@example.com', subject: 'Reset your password' })
    const link = new URL(resetMail?.url ?? '')
    const opened = await call(link.pathname + link.search)
    expect(opened.status).toBe(302)
    expect(opened.headers.get('location')).toBe(`/reset-password?token=${resetMail?.token}`)

    const signIn = await call('/api/auth/sign-in/email', { json: { email: 'ada@example.com', password: 'correct horse battery' } })
    const cookie = cookiesOf(signIn)
    const org = await call('/api/auth/organization/create', { cookie, json: { name: 'Acme', slug: 'acme' } })
    expect(org.status).toBe(200)
    const { id: organizationId } = (await org.json()) as { id: string }
    const invite = await call('/api/auth/organization/invite-member', { cookie, json: { organizationId, email: 'Bo@Example.com', role: 'member' } })
    expect(invite.status).toBe(200)
    const { id: invitationId } = (await invite.json()) as { id: string }
    const invitation = (await mails(mailLog)).find((line) => line.type === 'invitation')
    expect(invitation).toEqual({
      type: 'invitation',
      to: 'bo@example.com',
      subject: 'Ada invited you to Acme',
      url: `${server.url}/accept-invitation/${invitationId}`,
      invitationId,
    })
  })

  it('mails magic links as type "magic-link" with url and token; the link signs a new address up and in, once', async () => {
    const asked = await call('/api/auth/sign-in/magic-link', { json: { email: 'Link@Example.com', name: 'Lin', callbackURL: '/welcome' } })
    expect(asked.status).toBe(200)
    expect(await asked.json()).toEqual({ status: true })
    const mail = (await mails(mailLog)).find((line) => line.type === 'magic-link')
    expect(mail).toEqual({
      type: 'magic-link',
      to: 'link@example.com',
      subject: 'Your sign-in link',
      url: `${server.url}/api/auth/magic-link/verify?token=${mail?.token}&callbackURL=%2Fwelcome`,
      token: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
    })
    const link = new URL(mail?.url ?? '')
    const opened = await call(link.pathname + link.search)
    expect(opened.status).toBe(302)
    expect(opened.headers.get('location')).toBe('/welcome')
    const session = await call('/api/auth/get-session', { cookie: cookiesOf(opened) })
    expect(await session.json()).toMatchObject({ user: { email: 'link@example.com', name: 'Lin', emailVerified: true } })
    const again = await call(link.pathname + link.search)
    expect(again.headers.get('location')).toBe('/welcome?error=invalid_token')
  })

  it('appends each applied billing event to WEBHOOK_LOG once; redeliveries and refused events append nothing', async () => {
    const body = JSON.stringify(envelope('customer.created', customer({ external_id: null })))
    const at = new Date()
    const deliver = (id: string, signature: string) =>
      fetch(`${server.url}/api/auth/polar/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature },
        body,
      })
    const first = await deliver('msg_example_1', sign(body, { id: 'msg_example_1', at, scheme: 'standard', secret }))
    expect(first.status).toBe(200)
    const again = await deliver('msg_example_1', sign(body, { id: 'msg_example_1', at, scheme: 'standard', secret }))
    expect(again.status).toBe(200)
    const forged = await deliver('msg_example_2', sign(body, { id: 'msg_example_2', at, scheme: 'standard', secret: `whsec_${Buffer.from('another secret entirely!!').toString('base64')}` }))
    expect(forged.status).toBe(403)
    const lines = (await readFile(webhookLog, 'utf8')).split('\n').filter(Boolean).map((line) => JSON.parse(line) as unknown)
    expect(lines).toEqual([{ id: 'msg_example_1', type: 'customer.created' }])
  })

  it('serves a page that says how to build the app when it is missing', async () => {
    const response = await call('/')
    expect(response.status).toBe(503)
    expect(await response.text()).toContain('pnpm build')
  })
})

describe.skipIf(!existsSync(builtMain))('the built server as harnesses start it (skipped until `pnpm build`)', () => {
  let dir = ''
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gatehouse-example-built-'))
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it('starts, answers, and exits 0 on SIGTERM with a connection open', async () => {
    const port = await freePort()
    const server = runBuilt({ PORT: String(port), DATABASE_PATH: join(dir, 'a', 'auth.db') })
    await server.ready
    expect(server.output()).toContain('WARNING: AUTH_SECRET is not set')
    const ok = await fetch(`http://127.0.0.1:${port}/api/auth/ok`, { headers: { connection: 'keep-alive' } })
    expect(await ok.json()).toEqual({ ok: true })
    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
  })

  it('refuses to start in production without AUTH_SECRET', async () => {
    const server = runBuilt({ NODE_ENV: 'production', PORT: String(await freePort()), DATABASE_PATH: join(dir, 'b', 'auth.db') })
    expect(await server.exited).toBe(1)
    expect(server.output()).toContain('Configuration error: AUTH_SECRET is required')
  })
})

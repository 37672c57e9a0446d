/**
 * The cross-process checks, shared by the PostgreSQL and MariaDB suites:
 * each takes the running servers (two or more processes on one database) and
 * asserts on HTTP answers, the stored rows and the log files. Twenty
 * concurrent redemptions of one single-use token, spread over the processes,
 * must have exactly one effect.
 */
import { createHash, randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { expect } from 'vitest'
import { customer, envelope } from '../../../packages/billing/test/fixtures/payloads.js'
import { sign } from '../../../packages/billing/test/fixtures/harness.js'
import { cookiesOf } from './harness.js'
import { mailsTo, nextIp, PASSWORD, signUp, spread, WEBHOOK_SECRET, type ServerProcess, type TestDatabase } from './multi-process-harness.js'

export interface Deployment {
  readonly servers: readonly ServerProcess[]
  readonly db: TestDatabase
  readonly mailLog: string
  readonly webhookLog: string
  /** `"user"` on PostgreSQL, `` `user` `` on MariaDB. */
  readonly quote: (identifier: string) => string
  /** `$1` on PostgreSQL, `?` on MariaDB. */
  readonly param: (position: number) => string
}

const REDEMPTIONS = 20

let emails = 0
export function uniqueEmail(label: string): string {
  emails += 1
  return `${label}-${emails}-${randomBytes(3).toString('hex')}@example.com`
}

async function count(deployment: Deployment, table: string, column: string, value: string): Promise<number> {
  const { quote, param } = deployment
  const [row] = await deployment.db.query<{ n: number | string }>(`select count(*) as n from ${quote(table)} where ${quote(column)} = ${param(1)}`, [value])
  return Number(row?.n)
}

/** Statuses and the first bodies, for an assertion's message. */
async function summary(answers: readonly Response[]): Promise<string> {
  const bodies = await Promise.all(answers.slice(0, 3).map((answer) => answer.text()))
  return `statuses ${answers.map((answer) => answer.status).join(',')}; first bodies ${bodies.join(' | ')}`
}

async function sessionUser(server: ServerProcess, cookie: string): Promise<string | null> {
  const response = await server.call('/api/auth/get-session', { cookie })
  expect(response.status).toBe(200)
  const body = (await response.json()) as { user: { email: string } } | null
  return body?.user.email ?? null
}

/** A session made on one process is read on every other, and its revocation is seen by all at once. */
export async function sessionAcrossProcesses(deployment: Deployment): Promise<void> {
  const [first, ...others] = deployment.servers as [ServerProcess, ...ServerProcess[]]
  const email = uniqueEmail('session')
  const { cookie } = await signUp(first, email)
  for (const server of deployment.servers) expect(await sessionUser(server, cookie)).toBe(email)
  const last = others.at(-1) ?? first
  const signOut = await last.call('/api/auth/sign-out', { json: {}, cookie })
  expect(signOut.status).toBe(200)
  for (const server of deployment.servers) expect(await sessionUser(server, cookie)).toBeNull()
}

/**
 * Revocations while every process polls the revoked session with the cookie
 * cache off (a thief with a stolen cookie): a poll that misses Redis between
 * the revocation's delete and its commit, or a refresh racing it, must not
 * leave a copy behind (docs/sessions.md#revocation-and-racing-reads). Whether
 * a poll lands in that window is up to timing here; the deterministic proof is
 * packages/core/test/revocation-races.test.ts. Once the revocation answered,
 * no process accepts the session.
 */
export async function revocationUnderPolls(deployment: Deployment): Promise<void> {
  const [first, ...others] = deployment.servers as [ServerProcess, ...ServerProcess[]]
  const revoker = others.at(-1) ?? first
  const signIn = async (email: string, password: string) =>
    cookiesOf(await first.call('/api/auth/sign-in/email', { json: { email, password }, ip: nextIp() }))
  const revocations = [
    { path: '/api/auth/change-password', json: { currentPassword: PASSWORD, newPassword: 'a brand new passphrase', revokeOtherSessions: true } },
    { path: '/api/auth/revoke-other-sessions', json: {} },
    { path: '/api/auth/revoke-sessions', json: {} },
  ]
  for (const revocation of revocations) {
    const email = uniqueEmail('revoke-race')
    const stolen = await signUp(first, email)
    const own = await signIn(email, PASSWORD)
    let polling = true
    let polls = 0
    const pollers = deployment.servers.flatMap((server) =>
      Array.from({ length: 3 }, async () => {
        while (polling) {
          await (await server.call('/api/auth/get-session?disableCookieCache=true', { cookie: stolen.cookie })).arrayBuffer()
          polls += 1
        }
      }),
    )
    // Let the polls get going, so some are in flight when the revocation commits.
    while (polls < 10) await new Promise((resolve) => setTimeout(resolve, 5))
    const revoked = await revoker.call(revocation.path, { json: revocation.json, cookie: own, ip: nextIp() })
    polling = false
    await Promise.all(pollers)
    expect(revoked.status, revocation.path).toBe(200)
    for (const server of deployment.servers) expect(await sessionUser(server, stolen.cookie), revocation.path).toBeNull()
  }
}

/** verify-email: the first redemption verifies and signs in; the other nineteen change nothing. */
export async function verificationOnce(deployment: Deployment): Promise<void> {
  const [first] = deployment.servers as [ServerProcess]
  const email = uniqueEmail('verify')
  const { userId } = await signUp(first, email)
  const [mail] = await mailsTo(deployment.mailLog, email, 'verify-email')
  const token = new URL(mail?.url ?? '').searchParams.get('token') ?? ''
  const answers = await spread(deployment.servers, REDEMPTIONS, (server) => server.call(`/api/auth/verify-email?token=${token}`, { ip: nextIp() }))
  expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200))
  const signedIn = answers.filter((answer) => cookiesOf(answer).includes('session_token'))
  expect(signedIn).toHaveLength(1)
  // The sign-up's session and the one verification sign-in: no more.
  expect(await count(deployment, 'session', 'userId', userId)).toBe(2)
  const [user] = await deployment.db.query<{ emailVerified: unknown }>(
    `select ${deployment.quote('emailVerified')} from ${deployment.quote('user')} where id = ${deployment.param(1)}`,
    [userId],
  )
  expect(Boolean(user?.emailVerified)).toBe(true)
}

/** reset-password: one of twenty new passwords wins, and it is the one that works. */
export async function passwordResetOnce(deployment: Deployment): Promise<void> {
  const [first] = deployment.servers as [ServerProcess]
  const email = uniqueEmail('reset')
  await signUp(first, email)
  const asked = await first.call('/api/auth/request-password-reset', { json: { email, redirectTo: '/reset' }, ip: nextIp() })
  expect(asked.status).toBe(200)
  const [mail] = await mailsTo(deployment.mailLog, email, 'reset-password')
  const token = mail?.token ?? ''
  const answers = await spread(deployment.servers, REDEMPTIONS, (server, index) =>
    server.call('/api/auth/reset-password', { json: { token, newPassword: `new password ${index}` }, ip: nextIp() }),
  )
  const statuses = answers.map((answer) => answer.status)
  expect(statuses.filter((status) => status === 200)).toHaveLength(1)
  expect(statuses.filter((status) => status === 400)).toHaveLength(REDEMPTIONS - 1)
  const winner = statuses.indexOf(200)
  const signIn = (password: string) => first.call('/api/auth/sign-in/email', { json: { email, password }, ip: nextIp() })
  expect((await signIn(`new password ${winner}`)).status).toBe(200)
  expect((await signIn(`new password ${(winner + 1) % REDEMPTIONS}`)).status).toBe(401)
  expect((await signIn(PASSWORD)).status).toBe(401)
}

/** accept-invitation: one membership, whatever the number of concurrent accepts. */
export async function invitationOnce(deployment: Deployment): Promise<void> {
  const [first, second = first] = deployment.servers as [ServerProcess, ...ServerProcess[]]
  const owner = await signUp(first, uniqueEmail('owner'))
  const slug = `org-${randomBytes(4).toString('hex')}`
  const created = await first.call('/api/auth/organization/create', { json: { name: 'Acme', slug }, cookie: owner.cookie, ip: nextIp() })
  expect(created.status).toBe(200)
  const organizationId = ((await created.json()) as { id: string }).id
  const inviteeEmail = uniqueEmail('invitee')
  const invitee = await signUp(second, inviteeEmail)
  // This server lets anyone sign up unverified; accepting needs the address proven (docs/organization.md).
  const [verification] = await mailsTo(deployment.mailLog, inviteeEmail, 'verify-email')
  const verified = await first.call(new URL(verification?.url ?? '').pathname + new URL(verification?.url ?? '').search, { cookie: invitee.cookie, ip: nextIp() })
  expect(verified.status).toBe(302)
  expect(verified.headers.get('location')).toBe('/')
  const invited = await second.call('/api/auth/organization/invite-member', {
    json: { email: inviteeEmail, role: 'member', organizationId },
    cookie: owner.cookie,
    ip: nextIp(),
  })
  expect(invited.status).toBe(200)
  const [mail] = await mailsTo(deployment.mailLog, inviteeEmail, 'invitation')
  const answers = await spread(deployment.servers, REDEMPTIONS, (server) =>
    server.call('/api/auth/organization/accept-invitation', { json: { invitationId: mail?.invitationId }, cookie: invitee.cookie, ip: nextIp() }),
  )
  const statuses = answers.map((answer) => answer.status)
  expect(statuses.filter((status) => status === 200), await summary(answers)).toHaveLength(1)
  expect(statuses.filter((status) => status >= 500)).toEqual([])
  expect(await count(deployment, 'member', 'userId', invitee.userId)).toBe(1)
}

/** One billing webhook delivered twenty times at once: one WEBHOOK_LOG line. */
export async function webhookOnce(deployment: Deployment): Promise<void> {
  const id = `msg_${randomBytes(8).toString('hex')}`
  const body = JSON.stringify(envelope('customer.created', customer({ id: `cus_${randomBytes(6).toString('hex')}`, external_id: null })))
  const at = new Date()
  const signature = sign(body, { id, at, scheme: 'standard', secret: WEBHOOK_SECRET })
  const answers = await spread(deployment.servers, REDEMPTIONS, (server) =>
    fetch(`${server.url}/api/auth/polar/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature },
      body,
    }),
  )
  // A redelivery of an applied event is acknowledged too (the platform must stop retrying); only one applies.
  expect(answers.map((answer) => answer.status).filter((status) => status >= 500)).toEqual([])
  const lines = (await readFile(deployment.webhookLog, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { id: string })
  expect(lines.filter((line) => line.id === id)).toEqual([{ id, type: 'customer.created' }])
}

function tokenRequest(server: ServerProcess, client: { id: string; secret: string }, params: Record<string, string>): Promise<Response> {
  return fetch(`${server.url}/api/auth/oauth2/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${encodeURIComponent(client.id)}:${encodeURIComponent(client.secret)}`).toString('base64')}`,
      'x-forwarded-for': nextIp(),
    },
    body: new URLSearchParams(params),
  })
}

/** OpenID Provider: one authorization code and then one refresh token, each redeemed twenty times at once. */
export async function oidcCodeAndRefreshOnce(deployment: Deployment): Promise<void> {
  const [first, second = first] = deployment.servers as [ServerProcess, ...ServerProcess[]]
  const user = await signUp(first, uniqueEmail('oidc'))
  const redirectUri = 'http://127.0.0.1:9/callback'
  const registered = await second.call('/api/auth/oauth2/register', {
    json: { client_name: 'Notes', redirect_uris: [redirectUri], grant_types: ['authorization_code', 'refresh_token'] },
    cookie: user.cookie,
    ip: nextIp(),
  })
  expect(registered.status, await registered.clone().text()).toBe(201)
  const client = (await registered.json()) as { client_id: string; client_secret: string }
  const credentials = { id: client.client_id, secret: client.client_secret }
  /** A fresh code through authorize and the consent page, on two processes. */
  const authorize = async (): Promise<{ code: string; verifier: string }> => {
    const verifier = randomBytes(32).toString('base64url')
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: redirectUri,
      scope: 'openid email offline_access',
      // OpenID Connect Core §11: offline_access (a refresh token) only with prompt=consent.
      prompt: 'consent',
      state: 'st',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    })
    const authorized = await first.call(`/api/auth/oauth2/authorize?${query}`, { cookie: user.cookie, ip: nextIp() })
    expect(authorized.status, await authorized.clone().text()).toBe(302)
    let location = authorized.headers.get('location') ?? ''
    if (!location.startsWith(redirectUri)) {
      const consented = await second.call('/api/auth/oauth2/consent', { json: { accept: true }, cookie: `${user.cookie}; ${cookiesOf(authorized)}`, ip: nextIp() })
      expect(consented.status, await consented.clone().text()).toBe(200)
      location = ((await consented.json()) as { redirectURI: string }).redirectURI
    }
    return { code: new URL(location).searchParams.get('code') ?? '', verifier }
  }
  const exchange = (server: ServerProcess, { code, verifier }: { code: string; verifier: string }) =>
    tokenRequest(server, credentials, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier })

  const raced = await authorize()
  const exchanges = await spread(deployment.servers, REDEMPTIONS, (server) => exchange(server, raced))
  const exchangeStatuses = exchanges.map((answer) => answer.status)
  expect(exchangeStatuses.filter((status) => status === 200), await summary(exchanges.map((answer) => answer.clone()))).toHaveLength(1)
  expect(exchangeStatuses.filter((status) => status === 400)).toHaveLength(REDEMPTIONS - 1)

  // A replayed code revokes what it was exchanged for (RFC 6749 §4.1.2): the refresh race needs tokens of a code used once.
  const once = await exchange(second, await authorize())
  expect(once.status).toBe(200)
  const tokens = (await once.json()) as { refresh_token?: string }
  expect(tokens.refresh_token).toEqual(expect.any(String))

  const refreshes = await spread(deployment.servers, REDEMPTIONS, (server) =>
    tokenRequest(server, credentials, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token ?? '' }),
  )
  const refreshStatuses = refreshes.map((answer) => answer.status)
  expect(refreshStatuses.filter((status) => status === 200), await summary(refreshes.map((answer) => answer.clone()))).toHaveLength(1)
  expect(refreshStatuses.filter((status) => status === 400)).toHaveLength(REDEMPTIONS - 1)
}

/**
 * An API key with five uses left, used twenty times at once across the
 * processes: exactly five succeed (docs/api-key.md#remaining-uses); the
 * row ends at 0. `remaining` is server-only, so the test sets it as the
 * application's server would, in the database.
 */
export async function apiKeyRemainingOnce(deployment: Deployment): Promise<void> {
  const [first] = deployment.servers as [ServerProcess]
  const { cookie } = await signUp(first, uniqueEmail('api-key'))
  const created = await first.call('/api/auth/api-key/create', { json: { name: 'parallel' }, cookie, ip: nextIp() })
  expect(created.status).toBe(200)
  const { id, key } = (await created.json()) as { id: string; key: string }
  const { quote, param } = deployment
  await deployment.db.query(`update ${quote('apikey')} set ${quote('remaining')} = 5, ${quote('rateLimitEnabled')} = ${param(1)} where id = ${param(2)}`, [false, id])
  const answers = await spread(deployment.servers, REDEMPTIONS, (server) => server.call('/api/auth/get-session', { headers: { 'x-api-key': key }, ip: nextIp() }))
  const statuses = answers.map((answer) => answer.status)
  expect(statuses.filter((status) => status === 200), await summary(answers)).toHaveLength(5)
  expect(statuses.filter((status) => status === 429)).toHaveLength(REDEMPTIONS - 5)
  const [row] = await deployment.db.query<{ remaining: number | string }>(`select ${quote('remaining')} from ${quote('apikey')} where id = ${param(1)}`, [id])
  expect(Number(row?.remaining)).toBe(0)
}

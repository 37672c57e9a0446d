/**
 * Directory sync on the example server (README "Directory sync (SCIM)"):
 * an organization's owner generates a token in the app, and a directory
 * holding it manages the organization's members under
 * `/api/auth/scim/v2` the way Okta and Entra ID do: creates a user, finds
 * it with `filter=userName eq "…"`, deactivates it (the person's live
 * session ends within that request) and deletes it. Another organization's
 * token reaches none of it (docs/scim.md#security).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningServer } from '../src/server.js'
import { caller, cookiesOf, startExample } from './harness.js'

const PASSWORD = 'correct horse battery'
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User'
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp'
const LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse'

interface Reply {
  readonly status: number
  readonly headers: Headers
  // SCIM answers are JSON of many shapes; the test asserts on them.
  readonly body: any
}

describe('SCIM on the example server', () => {
  let dir = ''
  let mailLog = ''
  let server: RunningServer

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gatehouse-example-scim-'))
    mailLog = join(dir, 'mail.jsonl')
    server = await startExample(dir, { RATE_LIMIT: '0', MAIL_LOG: mailLog })
  })
  afterAll(async () => {
    await server?.close()
    await rm(dir, { recursive: true, force: true })
  })

  const call = caller(() => server)

  /** A directory's server holding `token`: a bearer token, SCIM JSON, no cookie and no Origin. */
  function directory(token: string) {
    return async (method: string, path: string, json?: unknown): Promise<Reply> => {
      const response = await fetch(`${server.url}/api/auth/scim/v2${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/scim+json',
          ...(json === undefined ? {} : { 'content-type': 'application/scim+json' }),
        },
        ...(json === undefined ? {} : { body: JSON.stringify(json) }),
      })
      const text = await response.text()
      return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null }
    }
  }

  /** Signs an owner up and creates their organization. */
  async function ownerWithOrganization(email: string, slug: string) {
    const signUp = await call('/api/auth/sign-up/email', { json: { name: slug, email, password: PASSWORD } })
    expect(signUp.status).toBe(200)
    const cookie = cookiesOf(signUp)
    const created = await call('/api/auth/organization/create', { json: { name: slug, slug }, cookie })
    expect(created.status).toBe(200)
    const { id: organizationId } = (await created.json()) as { id: string }
    return { cookie, organizationId }
  }

  /** The person signs in by the magic link MAIL_LOG holds: a user SCIM made has no password. */
  async function signInByMail(email: string): Promise<string> {
    expect((await call('/api/auth/sign-in/magic-link', { json: { email, callbackURL: '/' } })).status).toBe(200)
    const lines = (await readFile(mailLog, 'utf8')).split('\n').filter(Boolean)
    const mail = lines.map((line) => JSON.parse(line) as { type: string; to: string; url: string }).findLast((line) => line.type === 'magic-link' && line.to === email)
    const link = new URL(mail?.url ?? '')
    const opened = await call(link.pathname + link.search)
    expect(opened.status).toBe(302)
    return cookiesOf(opened)
  }

  async function sessionUser(cookie: string): Promise<string | null> {
    const response = await call('/api/auth/get-session', { cookie })
    const body = (await response.json()) as { user: { email: string } } | null
    return body?.user.email ?? null
  }

  it("lets an owner's token create, find, deactivate and delete a member; another organization's token reaches none of it", async () => {
    const acme = await ownerWithOrganization('ada@acme.test', 'acme')
    const generated = await call('/api/auth/scim/generate-token', { json: { organizationId: acme.organizationId, providerId: 'okta' }, cookie: acme.cookie })
    expect(generated.status).toBe(200)
    const token = (await generated.json()) as { scimToken: string; id: string; start: string; providerId: string }
    expect(token).toMatchObject({ providerId: 'okta', scimToken: expect.stringMatching(/^gatehouse_scim_[A-Za-z0-9]{43}$/) })
    expect(token.scimToken.startsWith(token.start)).toBe(true)
    // Listed without the secret, which was shown once.
    const listed = await call(`/api/auth/scim/list-tokens?organizationId=${acme.organizationId}`, { cookie: acme.cookie })
    expect(listed.status).toBe(200)
    const list = await listed.text()
    expect(JSON.parse(list)).toMatchObject({ tokens: [{ id: token.id, providerId: 'okta', start: token.start, lastUsedAt: null }] })
    expect(list).not.toContain(token.scimToken)

    const other = await ownerWithOrganization('bo@other.test', 'other')
    const otherToken = (await (await call('/api/auth/scim/generate-token', { json: { organizationId: other.organizationId }, cookie: other.cookie })).json()) as {
      scimToken: string
    }
    const okta = directory(token.scimToken)
    const stranger = directory(otherToken.scimToken)

    // The directory pushes a new person.
    const created = await okta('POST', '/Users', {
      schemas: [USER],
      userName: 'grace@acme.test',
      externalId: '00u1grace',
      name: { givenName: 'Grace', familyName: 'Hopper' },
      emails: [{ value: 'grace@acme.test', type: 'work', primary: true }],
      active: true,
    })
    expect(created.status).toBe(201)
    expect(created.headers.get('content-type')).toMatch(/^application\/scim\+json/)
    const id = created.body.id as string
    expect(created.headers.get('location')).toBe(`${server.url}/api/auth/scim/v2/Users/${id}`)
    expect(created.body).toMatchObject({ schemas: [USER], id, userName: 'grace@acme.test', externalId: '00u1grace', active: true, meta: { resourceType: 'User' } })

    // Okta's lookup before every push.
    const found = await okta('GET', `/Users?filter=${encodeURIComponent('userName eq "grace@acme.test"')}`)
    expect(found.status).toBe(200)
    expect(found.body).toMatchObject({ schemas: [LIST], totalResults: 1, Resources: [{ id, userName: 'grace@acme.test' }] })

    const grace = await signInByMail('grace@acme.test')
    expect(await sessionUser(grace)).toBe('grace@acme.test')

    // Another organization's token: the user is not there, and nothing it sends changes her.
    expect((await stranger('GET', `/Users?filter=${encodeURIComponent('userName eq "grace@acme.test"')}`)).body).toMatchObject({ totalResults: 0, Resources: [] })
    expect((await stranger('GET', `/Users/${id}`)).status).toBe(404)
    expect((await stranger('PATCH', `/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active: false } }] })).status).toBe(404)
    expect((await stranger('DELETE', `/Users/${id}`)).status).toBe(404)
    expect(await sessionUser(grace)).toBe('grace@acme.test')
    // A token nobody generated.
    const forged = await directory(`gatehouse_scim_${'a'.repeat(43)}`)('GET', '/Users')
    expect(forged.status).toBe(401)
    expect(forged.headers.get('www-authenticate')).toBe('Bearer realm="SCIM"')

    // Deactivation, as Entra ID sends it: her session is gone when the answer arrives.
    const deactivated = await okta('PATCH', `/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] })
    expect(deactivated.status).toBe(200)
    expect(deactivated.body.active).toBe(false)
    expect(await sessionUser(grace)).toBeNull()
    // The owner still sees her in the member list, as suspended.
    const full = await call(`/api/auth/organization/get-full-organization?organizationId=${acme.organizationId}`, { cookie: acme.cookie })
    const members = ((await full.json()) as { members: Array<{ userId: string; suspendedAt: string | null }> }).members
    expect(members.find((member) => member.userId === id)?.suspendedAt).toEqual(expect.any(String))

    const deleted = await okta('DELETE', `/Users/${id}`)
    expect(deleted.status).toBe(204)
    expect((await okta('GET', `/Users/${id}`)).status).toBe(404)
    expect((await okta('GET', `/Users?filter=${encodeURIComponent('userName eq "grace@acme.test"')}`)).body).toMatchObject({ totalResults: 0 })

    // The directory's use shows on the token list.
    const after = (await (await call(`/api/auth/scim/list-tokens?organizationId=${acme.organizationId}`, { cookie: acme.cookie })).json()) as {
      tokens: Array<{ lastUsedAt: string | null }>
    }
    expect(after.tokens[0]?.lastUsedAt).toEqual(expect.any(String))
  })

  it('refuses the token routes to a member who is not an owner or admin, and serves discovery without a token', async () => {
    const corp = await ownerWithOrganization('cy@corp.test', 'corp')
    const generated = (await (await call('/api/auth/scim/generate-token', { json: { organizationId: corp.organizationId }, cookie: corp.cookie })).json()) as {
      scimToken: string
    }
    // A member the directory added (role `member`) signs in and tries to mint a token of their own.
    expect((await directory(generated.scimToken)('POST', '/Users', { schemas: [USER], userName: 'dee@corp.test' })).status).toBe(201)
    const dee = await signInByMail('dee@corp.test')
    const refused = await call('/api/auth/scim/generate-token', { json: { organizationId: corp.organizationId }, cookie: dee })
    expect(refused.status).toBe(403)
    expect(await refused.json()).toMatchObject({ code: 'YOU_ARE_NOT_ALLOWED_TO_MANAGE_SCIM_TOKENS' })
    expect((await call(`/api/auth/scim/list-tokens?organizationId=${corp.organizationId}`, { cookie: dee })).status).toBe(403)

    const config = await fetch(`${server.url}/api/auth/scim/v2/ServiceProviderConfig`)
    expect(config.status).toBe(200)
    expect(await config.json()).toMatchObject({ patch: { supported: true }, filter: { supported: true } })
  })
})

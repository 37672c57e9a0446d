/**
 * The protocol around the resources (RFC 7644): the discovery documents,
 * paging (`startIndex`, `count`, `totalResults`, `itemsPerPage`),
 * `attributes` and `excludedAttributes`, `ETag` and `If-Match`, filter
 * refusals, and the same routes called through `auth.api`.
 */
import { describe, expect, it } from 'vitest'
import { connectedOrg, ENTERPRISE, ERROR, GROUP, LIST, PATCH_OP, scimAuth, SCIM_BASE, USER } from './fixtures.js'

describe('discovery', () => {
  it('ServiceProviderConfig says what is supported', async () => {
    const auth = scimAuth({ scim: { documentationUri: 'https://docs.example/scim' } })
    const response = await auth.handler(new Request(`${SCIM_BASE}/ServiceProviderConfig`))
    expect(await response.json()).toEqual({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
      documentationUri: 'https://docs.example/scim',
      patch: { supported: true },
      bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
      filter: { supported: true, maxResults: 100 },
      changePassword: { supported: false },
      sort: { supported: false },
      etag: { supported: true },
      authenticationSchemes: [expect.objectContaining({ type: 'oauthbearertoken', primary: true })],
      meta: { resourceType: 'ServiceProviderConfig', location: `${SCIM_BASE}/ServiceProviderConfig` },
    })
  })

  it('Schemas and ResourceTypes list User, Enterprise User and Group, and each by id', async () => {
    const auth = scimAuth()
    const schemas = await (await auth.handler(new Request(`${SCIM_BASE}/Schemas`))).json()
    expect(schemas).toMatchObject({ schemas: [LIST], totalResults: 3, itemsPerPage: 3, startIndex: 1 })
    expect(schemas.Resources.map((schema: { id: string }) => schema.id)).toEqual([USER, ENTERPRISE, GROUP])
    const user = schemas.Resources[0]
    expect(user.attributes.find((attribute: { name: string }) => attribute.name === 'userName')).toMatchObject({ required: true, uniqueness: 'server', caseExact: false })
    const one = await auth.handler(new Request(`${SCIM_BASE}/Schemas/${encodeURIComponent(GROUP)}`))
    expect(await one.json()).toMatchObject({ id: GROUP, name: 'Group', meta: { resourceType: 'Schema' } })
    const missing = await auth.handler(new Request(`${SCIM_BASE}/Schemas/urn:nope`))
    expect(missing.status).toBe(404)
    expect(await missing.json()).toMatchObject({ schemas: [ERROR], status: '404' })

    const types = await (await auth.handler(new Request(`${SCIM_BASE}/ResourceTypes`))).json()
    expect(types.Resources).toEqual([
      expect.objectContaining({ id: 'User', endpoint: '/Users', schema: USER, schemaExtensions: [{ schema: ENTERPRISE, required: false }] }),
      expect.objectContaining({ id: 'Group', endpoint: '/Groups', schema: GROUP }),
    ])
    expect(await (await auth.handler(new Request(`${SCIM_BASE}/ResourceTypes/User`))).json()).toMatchObject({ id: 'User', meta: { location: `${SCIM_BASE}/ResourceTypes/User` } })
  })
})

describe('paging and attributes', () => {
  it('pages in creation order with startIndex and count, counting every match', async () => {
    const auth = scimAuth()
    const { dir, owner } = await connectedOrg(auth)
    for (let index = 0; index < 5; index++) {
      auth.clock.advance(1000)
      await dir.post('/Users', { schemas: [USER], userName: `user${index}@acme.example` })
    }
    const page = await dir.get('/Users?startIndex=2&count=2')
    expect(page.body).toMatchObject({ schemas: [LIST], totalResults: 6, startIndex: 2, itemsPerPage: 2 })
    expect(page.body.Resources.map((user: { userName: string }) => user.userName)).toEqual(['user0@acme.example', 'user1@acme.example'])
    expect((await dir.get('/Users?startIndex=6&count=10')).body.Resources.map((user: { userName: string }) => user.userName)).toEqual(['user4@acme.example'])
    expect((await dir.get('/Users?count=0')).body).toMatchObject({ totalResults: 6, itemsPerPage: 0, Resources: [] })
    expect((await dir.get('/Users?startIndex=0&count=1')).body.Resources[0].userName).toBe(owner.email)
    const filtered = await dir.get(`/Users?filter=${encodeURIComponent('userName ew "@acme.example"')}&startIndex=3&count=2`)
    expect(filtered.body).toMatchObject({ totalResults: 5, startIndex: 3, itemsPerPage: 2 })
    expect(filtered.body.Resources.map((user: { userName: string }) => user.userName)).toEqual(['user2@acme.example', 'user3@acme.example'])
    const bad = await dir.get('/Users?count=many')
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ schemas: [ERROR], scimType: 'invalidValue' })
  })

  it('attributes keeps only what is named (and id, schemas); excludedAttributes drops what is named', async () => {
    const auth = scimAuth()
    const { dir } = await connectedOrg(auth)
    const id = (await dir.post('/Users', { schemas: [USER], userName: 'ada@acme.example', name: { givenName: 'Ada', familyName: 'L' }, emails: [{ value: 'ada@acme.example', type: 'work', primary: true }] })).body.id
    const narrow = await dir.get(`/Users/${id}?attributes=userName,emails.value,urn:ietf:params:scim:schemas:core:2.0:User:name.givenName`)
    expect(narrow.body).toEqual({ schemas: [USER], id, userName: 'ada@acme.example', emails: [{ value: 'ada@acme.example' }], name: { givenName: 'Ada' } })
    const wide = await dir.get(`/Users/${id}?excludedAttributes=emails,meta,groups,id`)
    expect(wide.body).toEqual({ schemas: [USER], id, userName: 'ada@acme.example', name: { givenName: 'Ada', familyName: 'L' }, active: true })
    const listed = await dir.get(`/Users?attributes=userName&filter=${encodeURIComponent('userName eq "ada@acme.example"')}`)
    expect(listed.body.Resources).toEqual([{ schemas: [USER], id, userName: 'ada@acme.example' }])
    const created = await dir.post('/Users?attributes=userName', { schemas: [USER], userName: 'bo@acme.example' })
    expect(Object.keys(created.body).sort()).toEqual(['id', 'schemas', 'userName'])
  })
})

describe('versions', () => {
  it('a write with a stale If-Match is 412 and changes nothing; the current version or * goes through', async () => {
    const auth = scimAuth()
    const { dir } = await connectedOrg(auth)
    const created = await dir.post('/Users', { schemas: [USER], userName: 'ada@acme.example', title: 'one' })
    const id = created.body.id as string
    const first = created.headers.get('etag') as string
    const changed = await dir.put(`/Users/${id}`, { schemas: [USER], userName: 'ada@acme.example', title: 'two' }, { 'if-match': first })
    expect(changed.status).toBe(200)
    expect(changed.headers.get('etag')).not.toBe(first)
    const stale = await dir.patch(`/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'title', value: 'three' }] }, { 'if-match': first })
    expect(stale.status).toBe(412)
    expect(stale.body).toMatchObject({ schemas: [ERROR], status: '412' })
    expect((await dir.delete(`/Users/${id}`, { 'if-match': first })).status).toBe(412)
    expect((await dir.get(`/Users/${id}`)).body.title).toBe('two')
    expect((await dir.patch(`/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'title', value: 'three' }] }, { 'if-match': '*' })).status).toBe(200)
    const group = await dir.post('/Groups', { schemas: [GROUP], displayName: 'V' })
    expect((await dir.put(`/Groups/${group.body.id}`, { schemas: [GROUP], displayName: 'W' }, { 'if-match': 'W/"old"' })).status).toBe(412)
    expect((await dir.put(`/Groups/${group.body.id}`, { schemas: [GROUP], displayName: 'W' }, { 'if-match': group.headers.get('etag') as string })).status).toBe(200)
  })
})

describe('filters', () => {
  it('an invalid filter is 400 invalidFilter, never an empty list', async () => {
    const auth = scimAuth()
    const { dir } = await connectedOrg(auth)
    for (const filter of ['userName eq', 'nosuch eq "x"', 'userName eq "x" and', `userName eq "${'\n'.repeat(40)}"`]) {
      const reply = await dir.get(`/Users?filter=${encodeURIComponent(filter)}`)
      expect(reply.status).toBe(400)
      expect(reply.body).toMatchObject({ schemas: [ERROR], status: '400', scimType: 'invalidFilter' })
    }
  })
})

describe('through auth.api', () => {
  it('the same routes answer server-side calls with the token in the headers', async () => {
    const auth = scimAuth()
    const { token } = await connectedOrg(auth)
    const headers = { authorization: `Bearer ${token}` }
    const created = (await auth.api.scimCreateUser({ body: { schemas: [USER], userName: 'api@acme.example' }, headers })) as Response
    expect(created.status).toBe(201)
    const id = ((await created.json()) as { id: string }).id
    const patched = (await auth.api.scimPatchUser({ params: { id }, body: { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: false }] }, headers })) as Response
    expect(((await patched.json()) as { active: boolean }).active).toBe(false)
    const listed = (await auth.api.scimListUsers({ query: { filter: 'userName eq "api@acme.example"' }, headers })) as Response
    expect(((await listed.json()) as { totalResults: number }).totalResults).toBe(1)
    expect(((await auth.api.scimGetUser({ params: { id } })) as Response).status).toBe(401)
  })
})

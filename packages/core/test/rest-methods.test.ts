/**
 * PUT, PATCH and DELETE endpoints (types/endpoint.ts): routed by method on
 * one path, their bodies read and parsed like a POST's, held to the origin
 * check like any state-changing request, and called through `api` with the
 * method they declare (the SCIM plugin's routes, docs/scim.md).
 */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineEndpoint } from '../src/endpoint/define-endpoint.js'
import { definePlugin } from '../src/plugins/types.js'
import { BASE, request, testAuth } from './helpers.js'

const read = defineEndpoint({ method: 'GET', path: '/things/:id', handler: ({ params, method }) => ({ id: params.id, method }) })
const replace = defineEndpoint({
  method: 'PUT',
  path: '/things/:id',
  body: z.object({ name: z.string() }),
  handler: ({ params, body, method }) => ({ id: params.id, name: body.name, method }),
})
const patch = defineEndpoint({
  method: 'PATCH',
  path: '/things/:id',
  body: z.object({ name: z.string().optional() }),
  handler: ({ params, body, method }) => ({ id: params.id, name: body.name ?? null, method }),
})
const remove = defineEndpoint({
  method: 'DELETE',
  path: '/things/:id',
  handler: ({ params }) => new Response(null, { status: 204, headers: { 'x-deleted': params.id ?? '' } }),
})

const things = definePlugin({ id: 'things', endpoints: { read, replace, patch, remove } })

describe('PUT, PATCH and DELETE endpoints', () => {
  const auth = testAuth({ plugins: [things], rateLimit: { enabled: false } })

  it('routes each method of one path to its own endpoint and lists them all in Allow', async () => {
    const put = await auth.handler(request('/api/auth/things/a', { method: 'PUT', json: { name: 'Ada' } }))
    expect(await put.json()).toEqual({ id: 'a', name: 'Ada', method: 'PUT' })
    const patched = await auth.handler(request('/api/auth/things/b', { method: 'PATCH', json: { name: 'Bo' } }))
    expect(await patched.json()).toEqual({ id: 'b', name: 'Bo', method: 'PATCH' })
    const deleted = await auth.handler(request('/api/auth/things/c', { method: 'DELETE' }))
    expect(deleted.status).toBe(204)
    expect(deleted.headers.get('x-deleted')).toBe('c')
    const refused = await auth.handler(request('/api/auth/things/c', { method: 'POST', json: {} }))
    expect(refused.status).toBe(405)
    expect(refused.headers.get('allow')).toBe('GET, PUT, PATCH, DELETE')
  })

  it('validates a PUT body like a POST body', async () => {
    const response = await auth.handler(request('/api/auth/things/a', { method: 'PUT', json: { name: 3 } }))
    expect(response.status).toBe(400)
  })

  it('holds them to the origin check: a cookie-bearing cross-site PUT or DELETE is refused', async () => {
    for (const method of ['PUT', 'DELETE']) {
      const response = await auth.handler(
        request('/api/auth/things/a', { method, json: { name: 'x' }, headers: { origin: 'https://evil.test', cookie: 'a=b' } }),
      )
      expect(response.status).toBe(403)
    }
    const sameSite = await auth.handler(request('/api/auth/things/a', { method: 'PATCH', json: {}, headers: { origin: BASE } }))
    expect(sameSite.status).toBe(200)
  })

  it('api calls run with the method the endpoint declares', async () => {
    expect(await auth.api.replace({ params: { id: 'x' }, body: { name: 'Cy' } })).toEqual({ id: 'x', name: 'Cy', method: 'PUT' })
    expect(await auth.api.patch({ params: { id: 'x' }, body: {} })).toEqual({ id: 'x', name: null, method: 'PATCH' })
    expect(await auth.api.read({ params: { id: 'x' } })).toEqual({ id: 'x', method: 'GET' })
  })
})

import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineEndpoint } from '../src/endpoint/define-endpoint.js'
import { definePlugin } from '../src/plugins/types.js'
import { request, testAuth } from './helpers.js'

const echo = defineEndpoint({
  method: 'POST',
  path: '/echo',
  body: z.object({ name: z.string().min(1), count: z.number().int().optional() }),
  handler: ({ body }) => ({ name: body.name, count: body.count ?? 0 }),
})

const tokenRoute = defineEndpoint({
  method: 'GET',
  path: '/token/:value',
  handler: ({ params }) => ({ value: params.value }),
})

const secretOnly = defineEndpoint({
  method: 'POST',
  path: '/server-thing',
  serverOnly: true,
  handler: () => ({ done: true }),
})

const rawEcho = defineEndpoint({
  method: 'POST',
  path: '/raw-echo',
  metadata: { rawBody: true, skipOriginCheck: true },
  handler: ({ body }) => ({ text: body as unknown, length: String(body).length }),
})

const routes = definePlugin({ id: 'routes', endpoints: { echo, tokenRoute, secretOnly, rawEcho } })

describe('routing through handler', () => {
  const auth = testAuth({ plugins: [routes], rateLimit: { enabled: false } })

  it('GET /ok answers {"ok":true}', async () => {
    const response = await auth.handler(request('/api/auth/ok'))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json')
    expect(await response.json()).toEqual({ ok: true })
  })

  it('an unknown path is 404 with a catalogue body', async () => {
    const response = await auth.handler(request('/api/auth/nope'))
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({ code: 'NOT_FOUND', message: 'Not found' })
  })

  it('a path outside the base path is 404', async () => {
    expect((await auth.handler(request('/ok'))).status).toBe(404)
    expect((await auth.handler(request('/api/authok'))).status).toBe(404)
  })

  it('a wrong method is 405 with Allow', async () => {
    const response = await auth.handler(request('/api/auth/ok', { method: 'POST' }))
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET')
    expect((await response.json()).code).toBe('METHOD_NOT_ALLOWED')
  })

  it.each(['/api/auth//ok', '/api/auth/ok/', '/api/auth/token//x', '/api/auth//token/x'])(
    '%s never reaches a route',
    async (path) => {
      const response = await auth.handler(request(path))
      expect(response.status).toBe(404)
    },
  )

  it('path parameters are decoded, and an encoded slash matches nothing', async () => {
    const ok = await auth.handler(request('/api/auth/token/a%20b'))
    expect(await ok.json()).toEqual({ value: 'a b' })
    expect((await auth.handler(request('/api/auth/token/a%2Fb'))).status).toBe(404)
    expect((await auth.handler(request('/api/auth/token/a%5cb'))).status).toBe(404)
    expect((await auth.handler(request('/api/auth/token/%E0%A4%A'))).status).toBe(404)
  })

  it('a server-only endpoint is not routed but is callable through api', async () => {
    const response = await auth.handler(request('/api/auth/server-thing', { method: 'POST' }))
    expect(response.status).toBe(404)
    expect(await auth.api.secretOnly()).toEqual({ done: true })
  })

  it('validates the body: 400 naming the field', async () => {
    const response = await auth.handler(request('/api/auth/echo', { json: { count: 2 } }))
    expect(response.status).toBe(400)
    const body = await response.json()
    expect(body.code).toBe('VALIDATION_ERROR')
    expect(body.message).toMatch(/^body\.name: /)
    expect(body.issues[0].path).toBe('body.name')
  })

  it('rejects malformed JSON with 400 and an unknown content type with 415', async () => {
    const bad = await auth.handler(
      request('/api/auth/echo', { method: 'POST', body: '{"name":', headers: { 'content-type': 'application/json' } }),
    )
    expect(bad.status).toBe(400)
    expect((await bad.json()).code).toBe('INVALID_JSON')
    const xml = await auth.handler(
      request('/api/auth/echo', { method: 'POST', body: '<a/>', headers: { 'content-type': 'application/xml' } }),
    )
    expect(xml.status).toBe(415)
  })

  it('accepts form-encoded bodies', async () => {
    const response = await auth.handler(
      request('/api/auth/echo', {
        method: 'POST',
        body: 'name=Ada',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
    )
    expect(await response.json()).toEqual({ name: 'Ada', count: 0 })
  })

  it('hands a raw-body endpoint the text exactly as sent, byte-order mark and spacing included', async () => {
    const sent = '\uFEFF{ "type" : "x",\n  "data": {} }'
    const response = await auth.handler(request('/api/auth/raw-echo', { method: 'POST', body: sent, headers: { 'content-type': 'application/json' } }))
    expect(await response.json()).toEqual({ text: sent, length: sent.length })
  })

  it('refuses invalid UTF-8 with 400 instead of handing on U+FFFD: raw and JSON bodies alike', async () => {
    // `{"name":"` 0xFF `"}`: a lenient decoder would hand the raw endpoint text that differs from the bytes sent.
    const invalid = new Uint8Array([...new TextEncoder().encode('{"name":"'), 0xff, ...new TextEncoder().encode('"}')])
    for (const path of ['/api/auth/raw-echo', '/api/auth/echo']) {
      const response = await auth.handler(request(path, { method: 'POST', body: invalid, headers: { 'content-type': 'application/json' } }))
      expect(response.status).toBe(400)
      expect(await response.json()).toEqual({ code: 'INVALID_BODY_ENCODING', message: 'Request body is not valid UTF-8' })
    }
    // A truncated multi-byte sequence at the end is invalid too; a leading byte-order mark is not.
    const truncated = new Uint8Array([...new TextEncoder().encode('{"name":"é'), 0xe2, 0x82])
    expect((await auth.handler(request('/api/auth/raw-echo', { method: 'POST', body: truncated }))).status).toBe(400)
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('{"a":"é"}')])
    expect(await (await auth.handler(request('/api/auth/raw-echo', { method: 'POST', body: bom }))).json()).toEqual({ text: '\uFEFF{"a":"é"}', length: 10 })
  })

  it('parses a JSON body that starts with a byte-order mark', async () => {
    const response = await auth.handler(
      request('/api/auth/echo', { method: 'POST', body: '\uFEFF{"name":"Ada"}', headers: { 'content-type': 'application/json' } }),
    )
    expect(await response.json()).toEqual({ name: 'Ada', count: 0 })
  })

  it('refuses a body over 1 MiB with 413, declared or streamed', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) })
    const declared = await auth.handler(request('/api/auth/echo', { method: 'POST', body: big, headers: { 'content-type': 'application/json' } }))
    expect(declared.status).toBe(413)
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big))
        controller.close()
      },
    })
    const streamed = await auth.handler(
      new Request('http://localhost:3000/api/auth/echo', {
        method: 'POST',
        body: stream,
        headers: { 'content-type': 'application/json' },
        duplex: 'half',
      } as RequestInit),
    )
    expect(streamed.status).toBe(413)
  })

  it('api returns typed data, throws AuthError, and can answer a Response', async () => {
    const data = await auth.api.echo({ body: { name: 'Ada', count: 3 } })
    expect(data).toEqual({ name: 'Ada', count: 3 })
    await expect(auth.api.echo({ body: { name: '' } })).rejects.toMatchObject({ code: 'VALIDATION_ERROR', status: 400 })
    const response = await auth.api.echo({ body: { name: 'Ada' }, asResponse: true })
    expect(response).toBeInstanceOf(Response)
    expect(response.status).toBe(200)
  })

  it('GET /error escapes the code it shows', async () => {
    const response = await auth.handler(request('/api/auth/error?error=%3Cscript%3Ealert(1)%3C/script%3E'))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('text/html')
    const html = await response.text()
    expect(html).not.toContain('<script>')
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
  })
})

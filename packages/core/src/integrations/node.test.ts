import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineEndpoint } from '../endpoint/define-endpoint.js'
import { definePlugin } from '../plugins/types.js'
import { testAuth } from '../../test/helpers.js'
import { toNodeHandler } from './node.js'

const whoami = defineEndpoint({
  method: 'POST',
  path: '/whoami',
  body: z.object({ name: z.string() }),
  handler: ({ body, ip, cookies }) => {
    cookies.set('first', 'a')
    cookies.set('second', 'b')
    return { name: body.name, ip }
  },
})

describe('toNodeHandler over a real socket', () => {
  const auth = testAuth({ plugins: [definePlugin({ id: 'node-test', endpoints: { whoami } })], rateLimit: { enabled: false } })
  let server: Server
  let base: string
  beforeAll(async () => {
    server = createServer(toNodeHandler(auth.handler))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('streams the body in, reports the socket peer as the client, and sends every Set-Cookie', async () => {
    const response = await fetch(`${base}/api/auth/whoami`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ada' }),
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ name: 'Ada', ip: '127.0.0.1' })
    expect(response.headers.getSetCookie().map((cookie) => cookie.split('=')[0])).toEqual(['gatehouse.first', 'gatehouse.second'])
  })

  it('a spoofed x-forwarded-for does not replace the peer address', async () => {
    const response = await fetch(`${base}/api/auth/whoami`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '6.6.6.6' },
      body: JSON.stringify({ name: 'Eve' }),
    })
    expect((await response.json()).ip).toBe('127.0.0.1')
  })

  it('answers 404 for other paths', async () => {
    const response = await fetch(`${base}/elsewhere`)
    expect(response.status).toBe(404)
  })
})

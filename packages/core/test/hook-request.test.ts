import { describe, expect, it, vi } from 'vitest'
import { handleIncomingKey, type Incoming } from '../src/endpoint/incoming.js'
import { definePlugin } from '../src/plugins/types.js'
import { request, testAuth } from './helpers.js'

/** GET /ok as node:http glue hands it over: no web Request until something asks for one. */
function okIncoming(): Incoming & { request: ReturnType<typeof vi.fn> } {
  return {
    method: 'GET',
    pathname: '/api/auth/ok',
    query: '',
    headers: new Headers(),
    peerAddress: '192.0.2.7',
    text: async () => '',
    request: vi.fn(() => request('/api/auth/ok')),
  }
}

describe('after-hooks and the lazy web Request', () => {
  it('run without building a Request when they do not read it, and see what the handler returned', async () => {
    const seen: unknown[] = []
    const plugin = definePlugin({
      id: 'observer',
      hooks: { after: [{ matcher: () => true, handler: async (ctx) => void seen.push([ctx.path, ctx.returned]) }] },
    })
    const auth = testAuth({ plugins: [plugin] })
    const incoming = okIncoming()
    const outgoing = await auth[handleIncomingKey](incoming)
    expect(outgoing.status).toBe(200)
    expect(seen).toEqual([['/ok', { ok: true }]])
    expect(incoming.request).not.toHaveBeenCalled()
  })

  it('still hand the Request to a hook that reads it', async () => {
    const urls: string[] = []
    const plugin = definePlugin({
      id: 'reader',
      hooks: { after: [{ matcher: () => true, handler: async (ctx) => void urls.push(new URL(ctx.request?.url ?? '').pathname) }] },
    })
    const auth = testAuth({ plugins: [plugin] })
    const incoming = okIncoming()
    expect((await auth[handleIncomingKey](incoming)).status).toBe(200)
    expect(urls).toEqual(['/api/auth/ok'])
    expect(incoming.request).toHaveBeenCalled()
  })
})

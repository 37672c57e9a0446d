import { describe, expect, it } from 'vitest'
import type { Store } from '../db/store.js'
import { withLazyRequest, withLazyRequestAndDb } from './lazy-fields.js'

describe('lazy context fields', () => {
  it('builds the request on each read and the store once, from the finished context', () => {
    const request = new Request('http://localhost/x')
    let requests = 0
    const made: object[] = []
    const store = {} as Store
    const context = withLazyRequestAndDb(
      { body: 1 },
      () => {
        requests++
        return request
      },
      (self) => {
        made.push(self)
        return store
      },
    )
    expect(requests).toBe(0)
    expect(made).toEqual([])
    expect(context.request).toBe(request)
    expect(context.request).toBe(request)
    expect(requests).toBe(2)
    expect(context.db).toBe(store)
    expect(context.db).toBe(store)
    expect(made).toEqual([context])
  })

  it('spreads into plain values, as literal getters did, without the hidden state', () => {
    const store = {} as Store
    const context = withLazyRequestAndDb({ body: 1 }, () => undefined, () => store)
    const copy = { ...context, extra: true }
    expect(copy).toEqual({ body: 1, request: undefined, db: store, extra: true })
    expect(Object.getOwnPropertySymbols(copy)).toEqual([])
    expect(Object.keys(withLazyRequest({ path: '/x' }, () => undefined))).toEqual(['path', 'request'])
  })

  it('refuses writes to the lazy fields, as getter-only properties do', () => {
    const context: Record<string, unknown> = withLazyRequest({ path: '/x' }, () => undefined)
    expect(() => {
      context.request = 'other'
    }).toThrow(TypeError)
  })
})

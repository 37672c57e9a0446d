import { describe, expect, it } from 'vitest'
import type { CallResult } from './errors.js'
import { createQueryStore } from './query-store.js'

/** A loader whose answers the test hands out one by one, counting calls. */
function loader() {
  const pending: Array<(result: CallResult<string>) => void> = []
  return {
    calls: () => pending.length,
    load: () => new Promise<CallResult<string>>((resolve) => pending.push(resolve)),
    answer(index: number, result: CallResult<string>) {
      const resolve = pending[index]
      if (!resolve) throw new Error(`no call ${index}`)
      resolve(result)
    },
  }
}

const data = (value: string): CallResult<string> => ({ data: value, error: null })
const tick = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('query store', () => {
  it('loads once for many readers and notifies each', async () => {
    const source = loader()
    const store = createQueryStore({ load: source.load, now: () => 0 })
    expect(source.calls()).toBe(0)
    const seen: string[] = []
    for (const name of ['a', 'b', 'c']) store.subscribe(() => seen.push(name))
    expect(source.calls()).toBe(0)
    await tick()
    expect(source.calls()).toBe(1)
    expect(store.getSnapshot()).toEqual({ data: null, error: null, isPending: true })

    source.answer(0, data('ada'))
    await tick()
    expect(store.getSnapshot()).toEqual({ data: 'ada', error: null, isPending: false })
    expect(seen).toEqual(['a', 'b', 'c'])
    expect(store.getSnapshot()).toBe(store.getSnapshot())
  })

  it('shares one request among concurrent refetches', async () => {
    const source = loader()
    const store = createQueryStore({ load: source.load, now: () => 0 })
    const all = Promise.all([store.refetch(), store.refetch(), store.refetch()])
    expect(source.calls()).toBe(1)
    source.answer(0, data('ada'))
    await all
    expect(store.getSnapshot().data).toBe('ada')
  })

  it('drops an answer that began before an invalidation and applies the newer one', async () => {
    const source = loader()
    const store = createQueryStore({ load: source.load, now: () => 0 })
    store.subscribe(() => {})
    await tick()
    store.invalidate()
    expect(source.calls()).toBe(2)
    const waiting = store.refetch()
    expect(source.calls()).toBe(2)

    source.answer(1, data('after sign-in'))
    source.answer(0, data('before sign-in'))
    await waiting
    await tick()
    expect(store.getSnapshot().data).toBe('after sign-in')
    // The late old answer is dropped without asking again: the newer one is already applied.
    expect(source.calls()).toBe(2)
  })

  it('an answer outdated by an invalidation made without readers loads again before its caller resumes', async () => {
    const source = loader()
    const store = createQueryStore({ load: source.load, now: () => 0 })
    const waiting = store.refetch()
    store.invalidate()
    expect(source.calls()).toBe(1)
    source.answer(0, data('before sign-in'))
    await tick()
    expect(source.calls()).toBe(2)
    expect(store.isLoaded()).toBe(false)
    source.answer(1, data('after sign-in'))
    await waiting
    expect(store.getSnapshot().data).toBe('after sign-in')
  })

  it('a reset drops the data at once, reloads, and takes no seed afterwards', async () => {
    const source = loader()
    const store = createQueryStore({ load: source.load, now: () => 0 })
    const seen: Array<string | null> = []
    store.subscribe(() => seen.push(store.getSnapshot().data))
    store.seed('ada')
    store.reset()
    expect(store.getSnapshot()).toEqual({ data: null, error: null, isPending: true })
    expect(source.calls()).toBe(1)
    store.seed("ada's page data")
    expect(store.getSnapshot().isPending).toBe(true)
    source.answer(0, data('grace'))
    await tick()
    expect(store.getSnapshot()).toEqual({ data: 'grace', error: null, isPending: false })
    expect(seen).toEqual(['ada', null, 'grace'])
    expect(source.calls()).toBe(1)
  })

  it('an invalidation without readers waits for the next reader', async () => {
    const source = loader()
    const store = createQueryStore({ load: source.load, now: () => 0 })
    const stop = store.subscribe(() => {})
    await tick()
    source.answer(0, data('ada'))
    await tick()
    stop()
    store.invalidate()
    await tick()
    expect(source.calls()).toBe(1)
    store.subscribe(() => {})
    await tick()
    expect(source.calls()).toBe(2)
  })

  it('a 401 empties the data; any other failure keeps it beside the error', async () => {
    const source = loader()
    const store = createQueryStore({ load: source.load, now: () => 0 })
    store.subscribe(() => {})
    await tick()
    source.answer(0, data('ada'))
    await tick()

    const network = { status: 0, code: 'NETWORK_ERROR', message: 'Network request failed' }
    const refetching = store.refetch()
    source.answer(1, { data: null, error: network })
    await refetching
    expect(store.getSnapshot()).toEqual({ data: 'ada', error: network, isPending: false })

    const unauthorized = { status: 401, code: 'UNAUTHORIZED', message: 'Unauthorized' }
    const again = store.refetch()
    source.answer(2, { data: null, error: unauthorized })
    await again
    expect(store.getSnapshot()).toEqual({ data: null, error: unauthorized, isPending: false })
  })

  it('a seed made in the same pass as the first subscription stands in for the first answer', async () => {
    const source = loader()
    const store = createQueryStore({ load: source.load, now: () => 0 })
    // Told of a sign-in before any reader came (the page was rendered after it).
    store.invalidate()
    store.subscribe(() => {})
    store.seed('from the server')
    await tick()
    expect(source.calls()).toBe(0)
    expect(store.getSnapshot()).toEqual({ data: 'from the server', error: null, isPending: false })
    store.seed('ignored once loaded')
    expect(store.getSnapshot().data).toBe('from the server')
  })

  it('refreshes on demand only when read and older than the throttle', async () => {
    const source = loader()
    let now = 1_000
    const store = createQueryStore({ load: source.load, now: () => now })
    store.refreshIfOlderThan(0)
    expect(source.calls()).toBe(0)
    store.subscribe(() => {})
    await tick()
    source.answer(0, data('ada'))
    await tick()

    now += 4_999
    store.refreshIfOlderThan(5_000)
    expect(source.calls()).toBe(1)
    now += 1
    store.refreshIfOlderThan(5_000)
    store.refreshIfOlderThan(5_000)
    expect(source.calls()).toBe(2)
  })

  it('says when its first reader arrives and its last leaves', () => {
    const events: string[] = []
    const store = createQueryStore({
      load: loader().load,
      now: () => 0,
      onActive: () => events.push('active'),
      onIdle: () => events.push('idle'),
    })
    const first = store.subscribe(() => {})
    const second = store.subscribe(() => {})
    first()
    first()
    expect(events).toEqual(['active'])
    second()
    expect(events).toEqual(['active', 'idle'])
  })
})

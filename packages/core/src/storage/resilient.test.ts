import { describe, expect, it } from 'vitest'
import { captureLogs } from '../../test/capture-logs.js'
import { createLogger } from '../logging/logger.js'
import { StorageUnavailableError } from './errors.js'
import { memoryStorage } from './memory-storage.js'
import { deleteOrThrow, resilientStorage } from './resilient.js'
import type { SecondaryStorage } from './types.js'

/** A real memory storage behind a switch that makes every call fail, as an unreachable Redis does. */
function switchable() {
  const inner = memoryStorage()
  let down = false
  const guard = <T>(run: () => Promise<T>): Promise<T> => (down ? Promise.reject(new StorageUnavailableError('down')) : run())
  const storage: SecondaryStorage = {
    get: (key) => guard(() => inner.get(key)),
    set: (key, value, ttl) => guard(() => inner.set(key, value, ttl)),
    delete: (key) => guard(() => inner.delete(key)),
    increment: (key, ttl) => guard(() => inner.increment(key, ttl)),
  }
  return { storage, inner, setDown: (value: boolean) => void (down = value) }
}

function wrap(storage: SecondaryStorage) {
  const logs = captureLogs()
  return { wrapped: resilientStorage(storage, { logger: createLogger(logs.logger) }), logs }
}

describe('resilientStorage', () => {
  it('reads as a miss and skips writes while the store is down', async () => {
    const { storage, inner, setDown } = switchable()
    const { wrapped, logs } = wrap(storage)
    await wrapped.set('a', '1')
    setDown(true)
    expect(await wrapped.get('a')).toBeNull()
    await wrapped.set('b', '2')
    setDown(false)
    expect(await wrapped.get('a')).toBe('1')
    expect(await inner.get('b')).toBeNull()
    expect(await wrapped.get('b')).toBeNull()
    // One warning for the outage, not one per call.
    expect(logs.lines.filter((line) => line.includes('secondary storage unavailable'))).toHaveLength(1)
  })

  it('replays a failed delete once the store answers, and treats the key as gone meanwhile', async () => {
    const { storage, inner, setDown } = switchable()
    const { wrapped } = wrap(storage)
    await wrapped.set('session:x', 'revoked soon')
    setDown(true)
    await wrapped.delete('session:x')
    setDown(false)
    expect(await inner.get('session:x')).toBe('revoked soon')
    // The first call after the outage replays the delete before it answers.
    expect(await wrapped.get('session:x')).toBeNull()
    expect(await inner.get('session:x')).toBeNull()
  })

  it('a write that failed leaves no outdated copy behind once the store answers', async () => {
    const { storage, inner, setDown } = switchable()
    const { wrapped } = wrap(storage)
    await wrapped.set('session:y', 'old name')
    setDown(true)
    await wrapped.set('session:y', 'new name')
    setDown(false)
    expect(await wrapped.get('session:y')).toBeNull()
    expect(await inner.get('session:y')).toBeNull()
  })

  it('a fresh write of a key clears its pending delete', async () => {
    const { storage, setDown } = switchable()
    const { wrapped } = wrap(storage)
    setDown(true)
    await wrapped.delete('k')
    setDown(false)
    await wrapped.set('k', 'new')
    expect(await wrapped.get('k')).toBe('new')
  })

  it('keeps at most maxPendingDeletes, dropping the oldest', async () => {
    const { storage, inner, setDown } = switchable()
    const logs = captureLogs()
    const wrapped = resilientStorage(storage, { logger: createLogger(logs.logger), maxPendingDeletes: 2 })
    for (const key of ['a', 'b', 'c']) await inner.set(key, 'v')
    setDown(true)
    for (const key of ['a', 'b', 'c']) await wrapped.delete(key)
    setDown(false)
    await wrapped.get('other')
    expect(await inner.get('a')).toBe('v')
    expect(await inner.get('b')).toBeNull()
    expect(await inner.get('c')).toBeNull()
    expect(logs.lines.some((line) => line.includes('the oldest was dropped'))).toBe(true)
  })

  it('deleteOrThrow: a revocation learns that its delete failed; the key is still hidden here and deleted on recovery', async () => {
    const { storage, inner, setDown } = switchable()
    const { wrapped } = wrap(storage)
    await wrapped.set('session:z', 'about to be revoked')
    setDown(true)
    await expect(deleteOrThrow(wrapped, 'session:z')).rejects.toBeInstanceOf(StorageUnavailableError)
    setDown(false)
    expect(await inner.get('session:z')).toBe('about to be revoked')
    expect(await wrapped.get('session:z')).toBeNull()
    expect(await inner.get('session:z')).toBeNull()
    await wrapped.set('session:z', 'again')
    await deleteOrThrow(wrapped, 'session:z')
    expect(await inner.get('session:z')).toBeNull()
  })

  it('deleteOrThrow on any other storage: its own delete, any failure reported as StorageUnavailableError', async () => {
    const inner = memoryStorage()
    await inner.set('k', 'v')
    await deleteOrThrow(inner, 'k')
    expect(await inner.get('k')).toBeNull()
    const broken: SecondaryStorage = { ...inner, delete: () => Promise.reject(new Error('ECONNRESET')) }
    const error = await deleteOrThrow(broken, 'k').catch((thrown: unknown) => thrown)
    expect(error).toBeInstanceOf(StorageUnavailableError)
    expect((error as Error).message).toContain('ECONNRESET')
  })

  it('passes increment through, failures included: the rate limiter decides', async () => {
    const { storage, setDown } = switchable()
    const { wrapped } = wrap(storage)
    expect((await wrapped.increment?.('n', 10))?.value).toBe(1)
    setDown(true)
    await expect(wrapped.increment?.('n', 10)).rejects.toBeInstanceOf(StorageUnavailableError)
  })
})

import { describe, expect, it } from 'vitest'
import { manualClock } from '../crypto/clock.js'
import { runSecondaryStorageConformance } from '../testing/storage-conformance.js'
import { memoryStorage } from './memory-storage.js'

const clock = manualClock()
runSecondaryStorageConformance({ name: 'memory', clock, createStorage: () => memoryStorage({ clock }) })

// The same suite against the system clock: the two real-time waits cost about 2.4 s.
runSecondaryStorageConformance({ name: 'memory (system clock)', createStorage: () => memoryStorage() })

describe('memoryStorage: bounded memory', () => {
  it('drops an expired entry when it is read', async () => {
    const clock = manualClock()
    const storage = memoryStorage({ clock })
    await storage.set('a', '1', 5)
    expect(storage.size()).toBe(1)
    clock.advance(5000)
    expect(await storage.get('a')).toBeNull()
    expect(storage.size()).toBe(0)
  })

  it('sweeps expired entries that are never read again', async () => {
    const clock = manualClock()
    const storage = memoryStorage({ clock })
    for (let index = 0; index < 400; index += 1) await storage.set(`short:${index}`, 'x', 1)
    expect(storage.size()).toBe(400)
    clock.advance(2000)
    // Writes of other keys trigger the periodic sweep; the 400 expired entries are never touched directly.
    for (let index = 0; index < 200; index += 1) await storage.set(`long:${index}`, 'y', 3600)
    expect(storage.size()).toBe(200)
    expect(await storage.get('long:0')).toBe('y')
    expect(await storage.get('long:199')).toBe('y')
  })

  it('keeps at most maxEntries, evicting the least recently written', async () => {
    const storage = memoryStorage({ maxEntries: 3 })
    await storage.set('a', '1')
    await storage.set('b', '2')
    await storage.set('c', '3')
    await storage.set('a', '1 again')
    await storage.set('d', '4')
    expect(storage.size()).toBe(3)
    expect(await storage.get('b')).toBeNull()
    expect(await storage.get('a')).toBe('1 again')
    expect(await storage.get('c')).toBe('3')
    expect(await storage.get('d')).toBe('4')
  })

  it('evicts expired entries before live ones when over the cap', async () => {
    const clock = manualClock()
    const storage = memoryStorage({ clock, maxEntries: 3 })
    await storage.set('live', 'kept', 3600)
    await storage.set('dead-1', 'x', 1)
    await storage.set('dead-2', 'x', 1)
    clock.advance(1500)
    await storage.set('new-1', 'a')
    await storage.set('new-2', 'b')
    expect(await storage.get('live')).toBe('kept')
    expect(await storage.get('new-1')).toBe('a')
    expect(await storage.get('new-2')).toBe('b')
    expect(storage.size()).toBe(3)
  })

  it('counts increments toward the cap', async () => {
    const storage = memoryStorage({ maxEntries: 2 })
    await storage.increment('k1', 60)
    await storage.increment('k2', 60)
    await storage.increment('k3', 60)
    expect(storage.size()).toBe(2)
    expect(await storage.get('k1')).toBeNull()
    expect(await storage.get('k3')).toBe('1')
  })

  it('refuses to count a value that is not an integer, like Redis INCR', async () => {
    const storage = memoryStorage()
    await storage.set('text', 'hello')
    await expect(storage.increment('text', 60)).rejects.toThrow(/not an integer/)
    await storage.set('number', '41')
    expect((await storage.increment('number', 60)).value).toBe(42)
  })

  it('treats a non-positive ttl as already expired', async () => {
    const storage = memoryStorage()
    await storage.set('k', 'v')
    await storage.set('k', 'w', 0)
    expect(await storage.get('k')).toBeNull()
    await expect(storage.increment('k', 0)).rejects.toThrow(RangeError)
  })

  it('rejects a cap below one', () => {
    expect(() => memoryStorage({ maxEntries: 0 })).toThrow(RangeError)
  })
})

import { describe, expect, it } from 'vitest'
import { captureLogs } from '../../test/capture-logs.js'
import { manualClock } from '../crypto/clock.js'
import { createLogger } from '../logging/logger.js'
import { StorageUnavailableError } from '../storage/errors.js'
import { memoryStorage } from '../storage/memory-storage.js'
import type { SecondaryStorage } from '../storage/types.js'
import { createRateLimiter } from './rate-limiter.js'
import { failsClosed, longestWindow } from './rules.js'

const ip = '203.0.113.20'

/** A memory storage whose counter can be switched off, as when Redis is unreachable. */
function switchable() {
  const inner = memoryStorage()
  let down = false
  const storage: SecondaryStorage = {
    get: (key) => inner.get(key),
    set: (key, value, ttl) => inner.set(key, value, ttl),
    delete: (key) => inner.delete(key),
    increment: (key, ttl) => (down ? Promise.reject(new StorageUnavailableError('down')) : inner.increment(key, ttl)),
  }
  return { storage, setDown: (value: boolean) => void (down = value) }
}

describe('failsClosed', () => {
  it('is true for credential paths and false elsewhere by default', () => {
    for (const path of ['/sign-in/email', '/sign-up/email', '/request-password-reset', '/reset-password/abc', '/verify-email', '/two-factor/verify-totp', '/passkey/verify-authentication', '/oauth2/token']) {
      expect(failsClosed(path, {}, [])).toBe(true)
    }
    for (const path of ['/get-session', '/sign-out', '/list-sessions', '/ok']) expect(failsClosed(path, {}, [])).toBe(false)
  })

  it('follows the failClosed of a custom or plugin rule', () => {
    expect(failsClosed('/sign-in/email', { customRules: { '/sign-in/*': { window: 10, max: 3, failClosed: false } } })).toBe(false)
    expect(failsClosed('/get-session', { customRules: { '/get-session': { window: 10, max: 30, failClosed: true } } })).toBe(true)
    const plugin = { pathMatcher: (path: string) => path === '/organization/invite-member', window: 60, max: 5, failClosed: true }
    expect(failsClosed('/organization/invite-member', {}, [plugin])).toBe(true)
  })
})

describe('rate limiter with its store down', () => {
  it('refuses credential paths as unavailable, lets others through uncounted, and counts again when the store returns', async () => {
    const { storage, setDown } = switchable()
    const logs = captureLogs()
    const limiter = createRateLimiter({ clock: manualClock(), secondaryStorage: storage, logger: createLogger(logs.logger) })
    setDown(true)
    expect(await limiter.check({ path: '/sign-in/email', ip })).toEqual({ allowed: false, retryAfterSeconds: 3, unavailable: true })
    expect(await limiter.check({ path: '/get-session', ip })).toEqual({ allowed: true })
    expect(logs.lines.filter((line) => line.includes('rate limit store unavailable'))).toHaveLength(1)
    setDown(false)
    const results = await Promise.all(Array.from({ length: 5 }, () => limiter.check({ path: '/sign-in/email', ip })))
    expect(results.filter((result) => result.allowed)).toHaveLength(3)
    expect(results.find((result) => !result.allowed)).toEqual({ allowed: false, retryAfterSeconds: expect.any(Number) })
  })

  it('a custom failClosed: false keeps a credential path open', async () => {
    const { storage, setDown } = switchable()
    const limiter = createRateLimiter({
      clock: manualClock(),
      secondaryStorage: storage,
      options: { customRules: { '/sign-in/email': { window: 10, max: 3, failClosed: false } } },
    })
    setDown(true)
    expect(await limiter.check({ path: '/sign-in/email', ip })).toEqual({ allowed: true })
  })
})

describe('longestWindow', () => {
  it('is the largest window among global, custom, plugin and built-in rules', () => {
    expect(longestWindow({})).toBe(10)
    expect(longestWindow({ window: 60, customRules: { '/x': { window: 900, max: 1 }, '/y': false } })).toBe(900)
    expect(longestWindow({}, [{ pathMatcher: () => true, window: 3600, max: 1 }])).toBe(3600)
  })
})

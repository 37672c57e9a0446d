import { describe, expect, it } from 'vitest'
import { assertValidRule, builtInRules, matchesPattern, resolveRule, type PluginRateLimitRule } from './rules.js'

const strict = { window: 10, max: 3 }

describe('resolveRule', () => {
  it('uses the global default, 100 requests per 10 s, for ordinary paths', () => {
    expect(resolveRule('/get-session', {})).toEqual({ window: 10, max: 100 })
    expect(resolveRule('/get-session', { window: 60, max: 500 })).toEqual({ window: 60, max: 500 })
  })

  it.each([
    '/sign-in/email',
    '/sign-in/social',
    '/sign-up/email',
    '/request-password-reset',
    '/forget-password',
    '/reset-password',
    '/change-password',
    '/send-verification-email',
  ])('applies the strict built-in rule to %s', (path) => {
    expect(resolveRule(path, { window: 60, max: 500 })).toEqual(strict)
  })

  it('does not stretch an exact built-in path to its neighbours', () => {
    expect(resolveRule('/change-password-now', {})).toEqual({ window: 10, max: 100 })
    expect(resolveRule('/sign-in', {})).toEqual({ window: 10, max: 100 })
  })

  it('lets a plugin rule override a built-in rule', () => {
    const plugin: PluginRateLimitRule = { pathMatcher: (path) => path.startsWith('/sign-in/'), window: 60, max: 5 }
    expect(resolveRule('/sign-in/username', {}, [plugin])).toEqual({ window: 60, max: 5 })
    expect(resolveRule('/sign-up/email', {}, [plugin])).toEqual(strict)
  })

  it('takes the first matching plugin rule', () => {
    const first: PluginRateLimitRule = { pathMatcher: (path) => path === '/two-factor/verify', window: 10, max: 3 }
    const second: PluginRateLimitRule = { pathMatcher: (path) => path.startsWith('/two-factor/'), window: 60, max: 20 }
    expect(resolveRule('/two-factor/verify', {}, [first, second])).toEqual({ window: 10, max: 3 })
    expect(resolveRule('/two-factor/enable', {}, [first, second])).toEqual({ window: 60, max: 20 })
  })

  it('lets a custom wildcard override plugin and built-in rules', () => {
    const plugin: PluginRateLimitRule = { pathMatcher: () => true, window: 60, max: 5 }
    const options = { customRules: { '/sign-in/*': { window: 30, max: 10 } } }
    expect(resolveRule('/sign-in/email', options, [plugin])).toEqual({ window: 30, max: 10 })
    expect(resolveRule('/sign-up/email', options, [plugin])).toEqual({ window: 60, max: 5 })
  })

  it('prefers the longest matching wildcard', () => {
    const options = {
      customRules: { '/*': { window: 1, max: 1000 }, '/sign-in/*': { window: 30, max: 10 }, '/sign-in/pass*': { window: 5, max: 2 } },
    }
    expect(resolveRule('/sign-in/passkey', options)).toEqual({ window: 5, max: 2 })
    expect(resolveRule('/sign-in/email', options)).toEqual({ window: 30, max: 10 })
    expect(resolveRule('/list-sessions', options)).toEqual({ window: 1, max: 1000 })
  })

  it('lets a custom exact path override a custom wildcard', () => {
    const options = { customRules: { '/sign-in/*': { window: 30, max: 10 }, '/sign-in/email': { window: 60, max: 1 } } }
    expect(resolveRule('/sign-in/email', options)).toEqual({ window: 60, max: 1 })
    expect(resolveRule('/sign-in/social', options)).toEqual({ window: 30, max: 10 })
  })

  it('turns limiting off for a path mapped to false, at either level', () => {
    const plugin: PluginRateLimitRule = { pathMatcher: () => true, window: 60, max: 5 }
    expect(resolveRule('/sign-in/email', { customRules: { '/sign-in/email': false } }, [plugin])).toBeNull()
    expect(resolveRule('/sign-in/social', { customRules: { '/sign-in/*': false } })).toBeNull()
    // An exact rule still wins over a disabling wildcard.
    const options = { customRules: { '/sign-in/*': false as const, '/sign-in/email': strict } }
    expect(resolveRule('/sign-in/email', options)).toEqual(strict)
  })

  it('ignores inherited object keys in customRules', () => {
    expect(resolveRule('constructor', { customRules: {} })).toEqual({ window: 10, max: 100 })
    expect(resolveRule('toString', {})).toEqual({ window: 10, max: 100 })
  })
})

describe('matchesPattern', () => {
  it('matches equal paths and *-terminated prefixes only', () => {
    expect(matchesPattern('/sign-in/*', '/sign-in/email')).toBe(true)
    expect(matchesPattern('/sign-in/*', '/sign-in')).toBe(false)
    expect(matchesPattern('/sign-in/email', '/sign-in/email')).toBe(true)
    expect(matchesPattern('/sign-in/email', '/sign-in/email2')).toBe(false)
  })
})

describe('builtInRules', () => {
  it('holds every built-in path at 3 requests per 10 s', () => {
    expect(Object.keys(builtInRules).sort()).toEqual(
      [
        '/change-password',
        '/forget-password',
        '/request-password-reset',
        '/reset-password',
        '/send-verification-email',
        '/sign-in/*',
        '/sign-up/*',
      ].sort(),
    )
    for (const rule of Object.values(builtInRules)) expect(rule).toEqual(strict)
  })
})

describe('assertValidRule', () => {
  it.each([
    [{ window: 0, max: 3 }, /window must be a positive/],
    [{ window: Number.NaN, max: 3 }, /window must be a positive/],
    [{ window: 10, max: -1 }, /max must be a non-negative integer/],
    [{ window: 10, max: 1.5 }, /max must be a non-negative integer/],
  ])('rejects %o', (rule, message) => {
    expect(() => assertValidRule(rule, 'test')).toThrow(message)
  })

  it('accepts a sensible rule', () => {
    expect(() => assertValidRule({ window: 0.5, max: 0 }, 'test')).not.toThrow()
  })
})

import { describe, expect, it } from 'vitest'
import { appendQueryParam } from './append-query.js'

describe('appendQueryParam', () => {
  it('starts a query with ? when there is none', () => {
    expect(appendQueryParam('/done', 'error', 'invalid_token')).toBe('/done?error=invalid_token')
    expect(appendQueryParam('https://app.test/done', 'token', 'abc')).toBe('https://app.test/done?token=abc')
  })

  it('extends an existing query with &', () => {
    expect(appendQueryParam('/done?tab=1', 'error', 'token_expired')).toBe('/done?tab=1&error=token_expired')
  })

  it('adds no separator after a trailing ? or &', () => {
    expect(appendQueryParam('/done?', 'error', 'x')).toBe('/done?error=x')
    expect(appendQueryParam('/done?a=1&', 'error', 'x')).toBe('/done?a=1&error=x')
  })

  it('keeps the fragment last', () => {
    expect(appendQueryParam('/done#top', 'error', 'x')).toBe('/done?error=x#top')
    expect(appendQueryParam('/done?a=1#top?b', 'error', 'x')).toBe('/done?a=1&error=x#top?b')
  })

  it('encodes the name and value', () => {
    expect(appendQueryParam('/done', 'a b', 'c&d=e')).toBe('/done?a%20b=c%26d%3De')
  })
})

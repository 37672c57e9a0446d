import { describe, expect, it } from 'vitest'
import { emailDomain, isEmailAtDomain, normalizeDomain } from './email-domain.js'

describe('normalizeDomain', () => {
  it('lowercases, drops a trailing dot and converts internationalized names to their ASCII form', () => {
    expect(normalizeDomain('Example.COM')).toBe('example.com')
    expect(normalizeDomain(' example.com. ')).toBe('example.com')
    expect(normalizeDomain('Bücher.example')).toBe('xn--bcher-kva.example')
    expect(normalizeDomain('xn--bcher-kva.example')).toBe('xn--bcher-kva.example')
  })

  it('refuses what is not a DNS name of two labels or more', () => {
    for (const input of ['', 'localhost', 'example', '127.0.0.1', '0x7f.1', '[::1]', 'example.com:443', 'https://example.com', 'a@example.com', 'a..com', '-a.com', 'a-.com', 'ex ample.com', 'exa_mple.com', 'example.com/path', 'example.com,other.com', `${'a'.repeat(64)}.com`, `${'a.'.repeat(127)}com`]) {
      expect(normalizeDomain(input), input).toBeNull()
    }
  })
})

describe('emailDomain and isEmailAtDomain', () => {
  it('takes the part after the last @, compared exactly: no subdomain, no suffix match', () => {
    expect(emailDomain('Ada@Example.COM')).toBe('example.com')
    expect(emailDomain('"a@b"@example.com')).toBe('example.com')
    expect(emailDomain('ada@')).toBeNull()
    expect(emailDomain('@example.com')).toBeNull()
    expect(isEmailAtDomain('ada@example.com', 'example.com')).toBe(true)
    expect(isEmailAtDomain('ada@eu.example.com', 'example.com')).toBe(false)
    expect(isEmailAtDomain('ada@notexample.com', 'example.com')).toBe(false)
    expect(isEmailAtDomain('ada@example.com.evil.test', 'example.com')).toBe(false)
    expect(isEmailAtDomain('ada@bücher.example', 'xn--bcher-kva.example')).toBe(true)
  })
})

import { describe, expect, it } from 'vitest'
import { assertFetchableUrl, checkFetchableUrl, exactOrigins, type SafeFetchPolicy } from './policy.js'
import { UnsafeUrlError } from './unsafe-url-error.js'

const untrusted: SafeFetchPolicy = { trustedOrigins: () => false }
const internal: SafeFetchPolicy = { trustedOrigins: exactOrigins(['http://127.0.0.1:4000', 'https://idp.corp.internal']) }

function reasonOf(url: string, policy = untrusted): string | null {
  const checked = checkFetchableUrl(url, policy)
  return checked.ok ? null : checked.error.reason
}

describe('checkFetchableUrl (register-time checks, no I/O)', () => {
  it('accepts an https URL on a public name or address and returns it parsed', () => {
    expect(assertFetchableUrl('https://login.example.com/.well-known/openid-configuration', untrusted).href).toBe(
      'https://login.example.com/.well-known/openid-configuration',
    )
    expect(reasonOf('https://93.184.215.14/')).toBeNull()
    expect(reasonOf('https://[2606:4700:4700::1111]/')).toBeNull()
  })

  it('refuses what does not parse, and credentials in the URL, without repeating them in the error', () => {
    expect(reasonOf('/relative/path')).toBe('invalid_url')
    expect(reasonOf('not a url')).toBe('invalid_url')
    const checked = checkFetchableUrl('https://admin:hunter2@idp.example.com/', untrusted)
    expect(checked.ok).toBe(false)
    if (!checked.ok) {
      expect(checked.error.reason).toBe('invalid_url')
      expect(checked.error.message).not.toContain('hunter2')
      expect(checked.error.url).toBe('https://idp.example.com/')
    }
  })

  it('refuses http and other schemes outside trustedOrigins', () => {
    expect(reasonOf('http://idp.example.com/')).toBe('scheme')
    expect(reasonOf('ftp://idp.example.com/')).toBe('scheme')
    expect(reasonOf('file:///etc/passwd')).toBe('scheme')
    expect(reasonOf('data:text/plain,x')).toBe('scheme')
  })

  it('refuses IP literals in refused ranges, whatever form the URL parser normalises', () => {
    for (const url of [
      'https://127.0.0.1/',
      'https://2130706433/', // 127.0.0.1 as one number
      'https://0x7f.1/',
      'https://169.254.169.254/latest/meta-data/',
      'https://10.1.2.3:8443/',
      'https://[::1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://[::ffff:a9fe:a9fe]/',
      'https://[fd00::1]/',
      'https://0.0.0.0/',
    ]) {
      expect([url, reasonOf(url)]).toEqual([url, 'address'])
    }
  })

  it('refuses localhost names (RFC 6761), which resolve to loopback everywhere', () => {
    expect(reasonOf('https://localhost/')).toBe('address')
    expect(reasonOf('https://localhost./')).toBe('address')
    expect(reasonOf('https://idp.localhost:8443/')).toBe('address')
    expect(reasonOf('https://notlocalhost.example/')).toBeNull()
  })

  it('lets a trusted origin through over http and on a loopback address, and only that exact origin', () => {
    expect(reasonOf('http://127.0.0.1:4000/.well-known/openid-configuration', internal)).toBeNull()
    expect(reasonOf('https://idp.corp.internal/metadata', internal)).toBeNull()
    expect(reasonOf('http://127.0.0.1:4001/', internal)).toBe('scheme')
    expect(reasonOf('https://127.0.0.1:4000/', internal)).toBe('address')
    expect(reasonOf('http://idp.corp.internal/metadata', internal)).toBe('scheme')
    expect(reasonOf('https://idp.corp.internal:8443/', internal)).toBeNull()
  })

  it('assertFetchableUrl throws the UnsafeUrlError', () => {
    expect(() => assertFetchableUrl('http://idp.example.com/', untrusted)).toThrow(UnsafeUrlError)
  })
})

describe('exactOrigins', () => {
  it('compares scheme, host and port, ignores paths in the list and entries that are not http(s) URLs', () => {
    const trusted = exactOrigins(['https://idp.example.com/some/path', 'http://127.0.0.1:4000', 'not a url', 'ftp://x.test'])
    expect(trusted(new URL('https://idp.example.com:443/other'))).toBe(true)
    expect(trusted(new URL('http://127.0.0.1:4000/x'))).toBe(true)
    expect(trusted(new URL('http://idp.example.com/'))).toBe(false)
    expect(trusted(new URL('https://idp.example.com.evil.test/'))).toBe(false)
    expect(trusted(new URL('http://localhost:4000/'))).toBe(false)
    expect(trusted(new URL('ftp://x.test/'))).toBe(false)
  })
})

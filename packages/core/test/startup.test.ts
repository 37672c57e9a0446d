import { afterEach, describe, expect, it, vi } from 'vitest'
import { createAuth } from '../src/auth/create-auth.js'
import { memoryAdapter } from '../src/db/memory/index.js'

const quiet = { disabled: true }

describe('start-up configuration checks', () => {
  it('fails without a base URL, never learning it from a request', () => {
    expect(() => createAuth({ baseURL: '', secret: 'x'.repeat(40), logger: quiet })).toThrow(/baseURL.*required/)
  })

  it('fails on a base URL that is not http(s)', () => {
    expect(() => createAuth({ baseURL: 'ftp://x.test', secret: 'x'.repeat(40), logger: quiet })).toThrow(/http or https/)
    expect(() => createAuth({ baseURL: 'not a url', secret: 'x'.repeat(40), logger: quiet })).toThrow(/not a valid URL/)
  })

  it('fails in production without a secret, or with a short one', () => {
    expect(() =>
      createAuth({ baseURL: 'https://app.test', production: true, database: memoryAdapter(), logger: quiet }),
    ).toThrow(/secret is required in production. Set `secret`, or the GATEHOUSE_SECRET or AUTH_SECRET environment variable \(GATEHOUSE_SECRET is read first\)/)
    expect(() =>
      createAuth({ baseURL: 'https://app.test', production: true, secret: 'short', database: memoryAdapter(), logger: quiet }),
    ).toThrow(/32/)
  })

  describe('the secret from the environment', () => {
    afterEach(() => vi.unstubAllEnvs())
    const production = () => createAuth({ baseURL: 'https://app.test', production: true, database: memoryAdapter(), logger: quiet })

    it('reads AUTH_SECRET, the name the docs use', () => {
      vi.stubEnv('GATEHOUSE_SECRET', '')
      vi.stubEnv('AUTH_SECRET', 'a'.repeat(40))
      expect(production).not.toThrow()
      vi.stubEnv('AUTH_SECRET', 'short')
      expect(production).toThrow(/32/)
    })

    it('reads GATEHOUSE_SECRET first, as before', () => {
      vi.stubEnv('GATEHOUSE_SECRET', 'g'.repeat(40))
      vi.stubEnv('AUTH_SECRET', 'short')
      expect(production).not.toThrow()
      vi.stubEnv('GATEHOUSE_SECRET', 'short')
      vi.stubEnv('AUTH_SECRET', 'a'.repeat(40))
      expect(production).toThrow(/32/)
    })

    it('an explicit `secret` wins over both', () => {
      vi.stubEnv('GATEHOUSE_SECRET', 'short')
      vi.stubEnv('AUTH_SECRET', 'short')
      expect(() =>
        createAuth({ baseURL: 'https://app.test', production: true, secret: 's'.repeat(40), database: memoryAdapter(), logger: quiet }),
      ).not.toThrow()
    })
  })

  it('fails in production without a database', () => {
    expect(() => createAuth({ baseURL: 'https://app.test', production: true, secret: 'x'.repeat(40), logger: quiet })).toThrow(
      /database/,
    )
  })

  it('warns and uses a development secret outside production', () => {
    const lines: string[] = []
    createAuth({
      baseURL: 'http://localhost:3000',
      production: false,
      database: memoryAdapter(),
      logger: { log: (_level, message) => lines.push(message) },
    })
    expect(lines.some((line) => line.includes('development secret'))).toBe(true)
  })

  describe('an http base URL in production', () => {
    const warnings = (baseURL: string, production: boolean) => {
      const lines: string[] = []
      createAuth({ baseURL, production, secret: 'x'.repeat(40), database: memoryAdapter(), logger: { log: (level, message) => level === 'warn' && lines.push(message) } })
      return lines.filter((line) => line.includes('is http in production'))
    }

    it('warns once at start when the host is not this machine', () => {
      expect(warnings('http://app.example.com', true)).toEqual([
        'baseURL http://app.example.com is http in production: session cookies are not marked Secure and travel unencrypted. Serve it over https (behind a proxy, the public https address is the baseURL).',
      ])
      expect(warnings('http://10.0.0.5:8080', true)).toHaveLength(1)
    })

    it('stays quiet for https, for localhost and loopback addresses, and outside production', () => {
      for (const baseURL of ['https://app.example.com', 'http://localhost:3000', 'http://app.localhost', 'http://127.0.0.1:3000', 'http://[::1]:3000']) {
        expect(warnings(baseURL, true), baseURL).toEqual([])
      }
      expect(warnings('http://app.example.com', false)).toEqual([])
    })
  })

  it('refuses two plugins with one id and two endpoints with one name', () => {
    const plugin = { id: 'same' }
    expect(() => createAuth({ baseURL: 'http://localhost', secret: 'x'.repeat(40), plugins: [plugin, plugin], logger: quiet })).toThrow(
      /registered twice/,
    )
  })

  it('takes the base path from the base URL when it has one', async () => {
    const auth = createAuth({ baseURL: 'http://localhost:3000/auth', secret: 'x'.repeat(40), database: memoryAdapter(), logger: quiet })
    const response = await auth.handler(new Request('http://localhost:3000/auth/ok'))
    expect(response.status).toBe(200)
    expect((await auth.$context).baseURL).toBe('http://localhost:3000/auth')
  })
})

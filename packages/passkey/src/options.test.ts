import { describe, expect, it } from 'vitest'
import { relyingParty, resolveOptions } from './options.js'

const auth = { origin: 'https://app.example.com', options: { appName: 'Example' } } as const

describe('passkey options', () => {
  it('default the relying party to the base URL and the app name', () => {
    expect(relyingParty(auth, resolveOptions())).toEqual({ id: 'app.example.com', name: 'Example', origins: ['https://app.example.com'] })
    expect(relyingParty({ origin: 'http://localhost:3000', options: {} }, resolveOptions())).toEqual({
      id: 'localhost',
      name: 'localhost',
      origins: ['http://localhost:3000'],
    })
  })

  it('take an rpID, a name and one origin or several', () => {
    const options = resolveOptions({ rpID: 'example.com', rpName: 'Shop', origin: ['https://example.com', 'https://www.example.com'] })
    expect(relyingParty(auth, options)).toEqual({ id: 'example.com', name: 'Shop', origins: ['https://example.com', 'https://www.example.com'] })
    expect(relyingParty(auth, resolveOptions({ origin: 'https://example.com' })).origins).toEqual(['https://example.com'])
  })

  it('default to 5-minute challenges, required user verification, 10 sign-in requests a minute', () => {
    expect(resolveOptions()).toMatchObject({ challengeExpiresIn: 300, userVerification: 'required', rateLimit: { window: 60, max: 10 } })
    expect(resolveOptions({ userVerification: 'preferred' }).userVerification).toBe('preferred')
  })

  it('refuse an origin with a path, a bad expiry and an unknown user verification', () => {
    expect(() => resolveOptions({ origin: 'https://example.com/' })).toThrow('passkey() origin "https://example.com/" is not an origin')
    expect(() => resolveOptions({ challengeExpiresIn: 0 })).toThrow('positive number of seconds')
    expect(() => resolveOptions({ userVerification: 'discouraged' as 'preferred' })).toThrow('"preferred" or "required"')
  })
})

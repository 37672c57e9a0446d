import { describe, expect, it } from 'vitest'
import { OAuthError } from '../errors.js'
import { readClientCredentials } from './clients.js'

const basic = (raw: string) => new Headers({ authorization: `Basic ${Buffer.from(raw).toString('base64')}` })

describe('readClientCredentials', () => {
  it('reads Basic credentials, form-decoding each half (RFC 6749 §2.3.1)', () => {
    expect(readClientCredentials(basic('my%20client:s%3Ac%2Bret+x'), {})).toEqual({
      clientId: 'my client',
      clientSecret: 's:c+ret x',
      method: 'client_secret_basic',
    })
    // Only the first colon separates: a raw colon in the secret survives.
    expect(readClientCredentials(basic('id:a:b'), {}).clientSecret).toBe('a:b')
  })

  it('reads body credentials, or a bare client_id for public clients', () => {
    expect(readClientCredentials(new Headers(), { client_id: 'id', client_secret: 'secret' })).toEqual({
      clientId: 'id',
      clientSecret: 'secret',
      method: 'client_secret_post',
    })
    expect(readClientCredentials(new Headers(), { client_id: 'id' })).toEqual({ clientId: 'id', clientSecret: undefined, method: 'none' })
  })

  it('refuses malformed Basic, two methods at once, and a body client_id naming another client', () => {
    const refused = (headers: Headers, body: Record<string, unknown>) => {
      try {
        readClientCredentials(headers, body)
      } catch (error) {
        return error instanceof OAuthError ? error.toJSON().error : 'other'
      }
      return 'accepted'
    }
    expect(refused(new Headers({ authorization: 'Basic !!!' }), {})).toBe('invalid_client')
    expect(refused(basic('id-without-secret'), {})).toBe('invalid_client')
    expect(refused(basic('id:'), {})).toBe('invalid_client')
    expect(refused(basic('id:secret'), { client_secret: 'secret' })).toBe('invalid_request')
    expect(refused(basic('id:secret'), { client_id: 'other' })).toBe('invalid_client')
  })
})

import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { fromBase64url, toBase64url } from './encoding.js'

describe('base64url', () => {
  it('matches Node for every length, without padding, and round-trips', () => {
    for (let length = 0; length < 70; length++) {
      const bytes = new Uint8Array(randomBytes(length))
      const text = toBase64url(bytes)
      expect(text).toBe(Buffer.from(bytes).toString('base64url'))
      expect(fromBase64url(text)).toEqual(bytes)
    }
    expect(toBase64url(new Uint8Array([251, 255]))).toBe('-_8')
  })
})

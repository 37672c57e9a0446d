import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { atHash } from './jwt.js'

describe('atHash', () => {
  it('matches the OpenID Connect Core example (Appendix A.3) and a second published RS256 pair', () => {
    expect(atHash('jHkWEdUXMU1BwAsC4vtUsZwnNvTIxEl0z9K3vx5KF0Y', 'RS256')).toBe('77QmUPtjPfzWtF2AnpK9RQ')
    expect(atHash('ya29.eQETFbFOkAs8nWHcmYXKwEi0Zz46NfsrUU_KuQLOLTwWS40y6Fb99aVzEXC0U14m61lcPMIr1hEIBA', 'RS256')).toBe('aUAkJG-u6x4RTWuILWy-CA')
  })

  it('uses SHA-256 for ES256 and the left half of SHA-512 for EdDSA', () => {
    const token = 'b3BhcXVlLWFjY2Vzcy10b2tlbi0zMi1jaGFycw'
    expect(atHash(token, 'ES256')).toBe(atHash(token, 'RS256'))
    const sha512 = createHash('sha512').update(token).digest()
    expect(atHash(token, 'EdDSA')).toBe(sha512.subarray(0, 32).toString('base64url'))
    expect(atHash(token, 'EdDSA')).toHaveLength(43)
    expect(atHash(token, 'RS256')).toHaveLength(22)
  })
})

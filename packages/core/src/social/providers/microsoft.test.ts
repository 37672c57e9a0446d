import { afterEach, describe, expect, it, vi } from 'vitest'
import { AUTH_BASE, NONCE, STATE, authorizeURL, configure, query, stubProvider, userInfo } from '../../../test/provider-kit.js'

afterEach(() => vi.unstubAllGlobals())

/** A v2.0 ID Token of a work account, with the `email` and `xms_edov` optional claims. */
const CLAIMS = {
  ver: '2.0',
  iss: 'https://login.microsoftonline.com/72f988bf-86f1-41af-91ab-2d7cd011db47/v2.0',
  sub: 'AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ',
  aud: '6cb04018-a3f5-46a7-b995-940c78f5aef3',
  exp: 1772370000,
  iat: 1772366400,
  nbf: 1772366400,
  name: 'Ada Lovelace',
  preferred_username: 'ada@contoso.com',
  oid: '00000000-0000-0000-66f3-3332eca7ea81',
  tid: '72f988bf-86f1-41af-91ab-2d7cd011db47',
  email: 'ada@contoso.com',
  xms_edov: true,
  nonce: NONCE,
}

describe('microsoft', () => {
  it('uses the common tenant by default, with an issuer template for the user tenant', async () => {
    const provider = configure('microsoft', { clientId: '6cb04018-a3f5-46a7-b995-940c78f5aef3', clientSecret: 'ms-secret' })
    const url = await authorizeURL(provider)
    expect(url.origin + url.pathname).toBe('https://login.microsoftonline.com/common/oauth2/v2.0/authorize')
    expect(query(url)).toMatchObject({
      client_id: '6cb04018-a3f5-46a7-b995-940c78f5aef3',
      redirect_uri: `${AUTH_BASE}/callback/microsoft`,
      scope: 'openid profile email offline_access',
      state: STATE,
      nonce: NONCE,
      code_challenge_method: 'S256',
    })
    expect(provider.definition).toMatchObject({
      tokenEndpoint: 'https://login.microsoftonline.com/common/oauth2/v2.0/token',
      issuer: 'https://login.microsoftonline.com/{tenantid}/v2.0',
      jwksUri: 'https://login.microsoftonline.com/common/discovery/v2.0/keys',
    })
  })

  it('pins the issuer of a single tenant and of personal accounts', () => {
    const tenant = '72f988bf-86f1-41af-91ab-2d7cd011db47'
    expect(configure('microsoft', { clientId: 'c', clientSecret: 's', tenantId: tenant }).definition).toMatchObject({
      authorizationEndpoint: `https://login.microsoftonline.com/${tenant}/oauth2/v2.0/authorize`,
      issuer: `https://login.microsoftonline.com/${tenant}/v2.0`,
    })
    expect(configure('microsoft', { clientId: 'c', clientSecret: 's', tenantId: 'consumers' }).definition.issuer).toBe(
      'https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0',
    )
    expect(() => configure('microsoft', { clientId: 'c', clientSecret: 's', tenantId: 'evil/../x' })).toThrow('tenantId is not a tenant')
  })

  it('maps the ID Token; the address is verified only with xms_edov', async () => {
    const log = stubProvider({})
    const provider = configure('microsoft', { clientId: CLAIMS.aud, clientSecret: 'ms-secret' })
    expect(await userInfo(provider, { idTokenClaims: CLAIMS })).toEqual({
      id: CLAIMS.sub,
      email: 'ada@contoso.com',
      emailVerified: true,
      name: 'Ada Lovelace',
      image: null,
      data: CLAIMS,
    })
    const { xms_edov: _dropped, ...withoutEdov } = CLAIMS
    expect(await userInfo(provider, { idTokenClaims: withoutEdov })).toMatchObject({ email: 'ada@contoso.com', emailVerified: false })
    expect(log).toEqual([])
  })

  it('falls back to the sign-in name as an unverified address when there is no email claim', async () => {
    const provider = configure('microsoft', { clientId: CLAIMS.aud, clientSecret: 'ms-secret' })
    const { email: _noMailbox, ...claims } = CLAIMS
    expect(await userInfo(provider, { idTokenClaims: claims })).toMatchObject({ email: 'ada@contoso.com', emailVerified: false })
    expect(await userInfo(provider, { idTokenClaims: { ...claims, preferred_username: 'ada' } })).toMatchObject({ email: null })
    expect(await userInfo(provider)).toBeNull()
  })
})

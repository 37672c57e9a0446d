/**
 * @module
 * The single sign-on endpoints by `auth.api` name (docs/sso.md#routes), the
 * leading library's names, so code written against its plugin calls the
 * same `auth.api.*`.
 */
import type { ResolvedSsoOptions } from '../options.js'
import { requestDomainVerification } from './domain/request-domain-verification.js'
import { verifyDomain } from './domain/verify-domain.js'
import { ssoCallback } from './oidc/callback.js'
import { deleteProvider } from './provider/delete-provider.js'
import { getProvider } from './provider/get-provider.js'
import { listProviders } from './provider/providers.js'
import { registerProvider } from './provider/register.js'
import { updateProvider } from './provider/update-provider.js'
import { samlEndpoints } from './saml/index.js'
import { signInSso } from './sign-in-sso.js'

export function ssoEndpoints(options: ResolvedSsoOptions) {
  return {
    signInSSO: signInSso,
    callbackSSO: ssoCallback,
    ...samlEndpoints,
    registerSSOProvider: registerProvider(options),
    listSSOProviders: listProviders,
    getSSOProvider: getProvider,
    updateSSOProvider: updateProvider,
    deleteSSOProvider: deleteProvider,
    requestDomainVerification,
    verifyDomain: verifyDomain(options),
  }
}

export type SsoEndpoints = ReturnType<typeof ssoEndpoints>

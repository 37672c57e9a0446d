/**
 * @module
 * The SAML service provider's endpoints by `auth.api` name (docs/sso.md#saml),
 * for the plugin's endpoint map (routes/index.ts).
 */
import { samlAcs } from './acs.js'
import { samlAcsComplete } from './acs-complete.js'
import { samlAuthnRequestPage } from './authn-request.js'
import { samlLogout } from './logout.js'
import { samlSlo } from './slo.js'
import { spMetadata } from './sp-metadata.js'

export const samlEndpoints = {
  spMetadata,
  acsEndpoint: samlAcs,
  samlAcsComplete,
  samlAuthnRequestPage,
  sloEndpoint: samlSlo,
  initiateSLO: samlLogout,
}

/**
 * @module
 * The SAML routes' JSON errors (docs/sso.md#errors), the leading library's
 * messages. A browser sign-in never sees these: the ACS and its completion
 * step end in a redirect with `?error=<code>` (validate.ts). Only the
 * logout routes, which a page or an IdP calls, answer with them.
 */
import { defineErrors } from '@gatehouse/core'

/**
 * @example
 * throw new AuthError(SamlErrors.IDP_SLO_NOT_SUPPORTED) // 400 "IdP does not support Single Logout Service"
 */
export const SamlErrors = defineErrors({
  INVALID_LOGOUT_REQUEST: { status: 400, message: 'Invalid LogoutRequest' },
  INVALID_LOGOUT_RESPONSE: { status: 400, message: 'Invalid LogoutResponse' },
  IDP_SLO_NOT_SUPPORTED: { status: 400, message: 'IdP does not support Single Logout Service' },
  SAML_PROVIDER_NOT_FOUND: { status: 404, message: 'SAML provider not found' },
})

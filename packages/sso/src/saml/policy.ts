/**
 * @module
 * The deployment-wide SAML rules (docs/sso.md#saml-options): whether an
 * IdP may start a sign-in on its own, and how far the IdP's clock may be
 * off. The plugin's `saml` option resolves to this; every SAML route and
 * service takes it as an argument instead of reading the plugin's options.
 */

export interface SamlPolicy {
  /**
   * Accept responses no request of ours asked for (IdP-initiated SSO). Off by
   * default: such a response is bound to no browser, so anyone holding one
   * (a link in a mail, a captured POST) signs whoever opens it in as its
   * subject (login CSRF), and its replay window is the assertion's own
   * lifetime (docs/sso.md#idp-initiated-sign-in).
   */
  readonly allowIdpInitiated: boolean
  /** Milliseconds the IdP's clock may be off when NotBefore and NotOnOrAfter are checked. */
  readonly clockSkewMs: number
}

/** One minute: enough for drifting clocks, short against replays of a captured response. */
export const DEFAULT_CLOCK_SKEW_MS = 60_000

/**
 * @example
 * const policy = samlPolicy({ allowIdpInitiated: false, clockSkewMs: 30_000 })
 */
export function samlPolicy(options: { readonly allowIdpInitiated?: boolean | undefined; readonly clockSkewMs?: number | undefined } = {}): SamlPolicy {
  const skew = options.clockSkewMs ?? DEFAULT_CLOCK_SKEW_MS
  if (!Number.isFinite(skew) || skew < 0) throw new RangeError(`saml.clockSkewMs must be 0 or more milliseconds, got ${skew}`)
  return { allowIdpInitiated: options.allowIdpInitiated === true, clockSkewMs: skew }
}

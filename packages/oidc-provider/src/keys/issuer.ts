/**
 * @module
 * The issuer identifier: the auth base URL (origin plus base path, no
 * trailing slash), exactly the string relying parties compare `iss` with
 * (OpenID Connect Discovery §4.3: the discovery document's `issuer` must be
 * identical to the URL it was fetched under, minus the well-known suffix).
 * It comes from the configured `baseURL`, never from the request's Host.
 */
import type { KeyContext } from '@gatehouse/core'

/**
 * @example
 * issuer(ctx) // 'https://app.example.com/api/auth'
 */
export function issuer(ctx: KeyContext): string {
  return ctx.auth.baseURL.replace(/\/+$/, '')
}

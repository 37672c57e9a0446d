/**
 * @module
 * The ID Token's `acr` (OpenID Connect Core §2) from the sign-in's `amr`
 * (RFC 8176 method values, recorded on the session by core when it signs
 * in), by the `acrValues` option (docs/oidc-provider.md#amr-and-acr).
 * `acr_values` in the request is voluntary (OpenID Connect Core §5.5.1.1):
 * a sign-in that satisfies none of them is not refused here; the ID Token
 * then carries the strongest configured class it does satisfy, or none, and
 * a relying party that requires a class checks the claim.
 */
import type { AcrValue } from '../options.js'

function satisfies(entry: AcrValue, amr: readonly string[]): boolean {
  return entry.amr.every((method) => amr.includes(method))
}

/**
 * @example
 * const classes = [{ value: 'mfa', amr: ['mfa'] }, { value: 'pwd', amr: ['pwd'] }]
 * chooseAcr(classes, ['pwd', 'otp', 'mfa'], [])      // 'mfa'
 * chooseAcr(classes, ['pwd', 'otp', 'mfa'], ['pwd']) // 'pwd'
 * chooseAcr(classes, ['pwd'], ['mfa'])               // 'pwd'
 */
export function chooseAcr(configured: readonly AcrValue[], amr: readonly string[], requested: readonly string[]): string | undefined {
  for (const value of requested) {
    const entry = configured.find((candidate) => candidate.value === value)
    if (entry && satisfies(entry, amr)) return entry.value
  }
  return configured.find((entry) => satisfies(entry, amr))?.value
}

/**
 * @module
 * The DNS proof of a domain (docs/sso.md#verifying-a-domain): a TXT record at
 * `_gatehouse-challenge.<domain>` whose text is the token request-domain-verification
 * gave. The record is looked up through the configured resolver
 * (`domainVerification.resolveTxt`, `node:dns/promises` by default), at most
 * five seconds, and its chunks joined as RFC 7208 §3.3 joins TXT strings.
 * Tokens are compared in constant time. The answer is a value: a missing
 * record and a failed lookup are both refusals the route answers 502, as the
 * leading library does, told apart in the log only.
 */
import { constantTimeEqual } from '@gatehouse/core'
import type { ResolveTxt } from '../options.js'

/** The label the TXT record lives under. */
export const CHALLENGE_LABEL = '_gatehouse-challenge'

/** How long one TXT lookup may take. */
export const DNS_TIMEOUT_MS = 5_000

export type ChallengeResult = { readonly ok: true } | { readonly ok: false; readonly reason: 'missing' | 'lookup-failed' }

/**
 * @example
 * challengeName('example.com') // '_gatehouse-challenge.example.com'
 */
export function challengeName(domain: string): string {
  return `${CHALLENGE_LABEL}.${domain}`
}

/** Codes node:dns answers when the name or the record type does not exist: no proof, not a fault. */
const NO_RECORD = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN'])

/**
 * Whether the challenge record of `domain` holds one of `tokens`.
 *
 * @example
 * const result = await checkChallenge(resolveTxt, 'example.com', [token])
 * if (!result.ok) throw new AuthError(SsoErrors.DOMAIN_VERIFICATION_FAILED)
 */
export async function checkChallenge(resolveTxt: ResolveTxt, domain: string, tokens: readonly string[]): Promise<ChallengeResult> {
  let records: string[][]
  let timer: ReturnType<typeof setTimeout> | undefined
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error('TXT lookup timed out'), { code: 'ETIMEOUT' })), DNS_TIMEOUT_MS)
    })
    records = await Promise.race([resolveTxt(challengeName(domain)), timeout])
  } catch (error) {
    const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : ''
    return { ok: false, reason: NO_RECORD.has(code) ? 'missing' : 'lookup-failed' }
  } finally {
    clearTimeout(timer)
  }
  if (!Array.isArray(records)) return { ok: false, reason: 'lookup-failed' }
  for (const record of records) {
    const text = (Array.isArray(record) ? record.join('') : String(record)).trim()
    // Every token is compared, whatever matched before: the time depends on the counts, not on the contents.
    let found = false
    for (const token of tokens) if (constantTimeEqual(text, token)) found = true
    if (found) return { ok: true }
  }
  return { ok: false, reason: 'missing' }
}

/**
 * @module
 * Keys and certificates as an organization admin pastes them
 * (docs/sso.md#saml-keys): a PEM document, or bare base64 of the DER. The
 * SP's `privateKey` and `decryptionPvk` may carry their certificate after
 * the key (`cat key.pem cert.pem`): the key signs or decrypts, the
 * certificate goes into the SP metadata so the IdP can check our signatures
 * and encrypt to us. Nothing here parses X.509; node:crypto only checks that
 * each block is what its label says.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto'

const BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g

export interface PemBundle {
  /** The private key's PEM block, if any. */
  readonly key: string | null
  /** Every CERTIFICATE block, in order. */
  readonly certificates: readonly string[]
}

/**
 * Splits pasted PEM text into its private key and certificates.
 *
 * @example
 * const { key, certificates } = splitPem(config.privateKey ?? '')
 */
export function splitPem(text: string): PemBundle {
  let key: string | null = null
  const certificates: string[] = []
  for (const match of text.matchAll(BLOCK)) {
    const label = match[1] ?? ''
    const block = match[0]
    if (label === 'CERTIFICATE') certificates.push(block)
    else if (label.endsWith('PRIVATE KEY') && key === null) key = block
  }
  return { key, certificates }
}

/**
 * The private key of pasted SP key material, checked to parse; null when
 * the text holds none.
 *
 * @example
 * const signingKey = privateKeyPem(config.privateKey)
 */
export function privateKeyPem(text: string | undefined): string | null {
  if (!text) return null
  const { key } = splitPem(text)
  if (key === null) return null
  createPrivateKey(key)
  return key
}

/** The certificate pasted after an SP key, checked to parse; null when there is none. */
export function certificateAfterKey(text: string | undefined): string | null {
  if (!text) return null
  const [first] = splitPem(text).certificates
  if (first === undefined) return null
  new X509Certificate(first)
  return first
}

/**
 * An IdP certificate as PEM, from PEM text or bare base64 DER (what IdP
 * metadata and most admin consoles show). Throws when it is neither.
 *
 * @example
 * const pem = certificatePem('MIIC8DCCAdigAwIBAgIQ...')
 */
export function certificatePem(text: string): string {
  const trimmed = text.trim()
  const [block] = splitPem(trimmed).certificates
  const pem = block ?? `-----BEGIN CERTIFICATE-----\n${(trimmed.replace(/\s+/g, '').match(/.{1,64}/g) ?? []).join('\n')}\n-----END CERTIFICATE-----\n`
  // Parsing proves it is a certificate, not some other key a signature could then be checked with.
  new X509Certificate(pem)
  return pem
}

/**
 * @module
 * Password hashing: scrypt off the event loop, a replaceable hasher, and the
 * timing-safe verifier for sign-in. See docs/passwords.md.
 */
export { createTimingSafeVerifier, defaultPasswordHasher, scryptHashIsWeaker, scryptPasswordHasher } from './password-hasher.js'
export type { PasswordHasher, TimingSafeVerifier } from './password-hasher.js'
export { hashPassword, passwordBytes, verifyPassword } from './scrypt.js'
export { DEFAULT_SCRYPT_PARAMS, SCRYPT_LIMITS, parsePasswordHash } from './scrypt-format.js'
export type { ParsedPasswordHash, ScryptParams } from './scrypt-format.js'
export { detectScryptBackend } from './scrypt-kdf.js'
export type { ScryptBackend } from './scrypt-kdf.js'

/**
 * @module
 * The browser half of the ceremonies (docs/passkeys.md#client): options
 * from the server, `navigator.credentials` through @simplewebauthn/browser
 * (loaded on first use, so pages that never touch a passkey do not fetch
 * it), the answer back to the server. A failure of the browser step
 * resolves, like every client call, to `{ data: null, error }` with a code
 * of its own; it never rejects.
 */
import type { ActionContext, AuthClientError, CallOptions, CallResult } from '@gatehouse/react/client'
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser'
import { passkeyRoutes } from './routes.js'

/** The client's own codes for a browser step that did not produce an answer. */
export const PasskeyClientErrors = {
  PASSKEY_CANCELLED: { status: 0, message: 'The passkey request was cancelled or timed out' },
  PASSKEY_NOT_SUPPORTED: { status: 0, message: 'This browser does not support passkeys' },
  PASSKEY_CEREMONY_FAILED: { status: 0, message: 'The browser could not complete the passkey request' },
} as const

export type PasskeyClientErrorCode = keyof typeof PasskeyClientErrors

type Browser = typeof import('@simplewebauthn/browser')
let loading: Promise<Browser> | undefined

function browser(): Promise<Browser> {
  loading ??= import('@simplewebauthn/browser').catch((error: unknown) => {
    loading = undefined
    throw error
  })
  return loading
}

function failure(code: PasskeyClientErrorCode): { data: null; error: AuthClientError<PasskeyClientErrorCode> } {
  return { data: null, error: { code, ...PasskeyClientErrors[code] } }
}

/** Cancelled by the user, timed out, or aborted by a newer ceremony (a click while autofill waits). */
function ceremonyFailure(error: unknown) {
  const name = error instanceof Error ? error.name : ''
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : ''
  if (name === 'NotAllowedError' || name === 'AbortError' || code === 'ERROR_CEREMONY_ABORTED') return failure('PASSKEY_CANCELLED')
  if (name === 'NotSupportedError' || /not supported/i.test(error instanceof Error ? error.message : '')) return failure('PASSKEY_NOT_SUPPORTED')
  return failure('PASSKEY_CEREMONY_FAILED')
}

export interface AddPasskeyInput {
  /** A label for the list ("Work laptop"). */
  readonly name?: string
  /** Ask for this kind of authenticator only: the device itself, or a security key or phone. */
  readonly authenticatorAttachment?: 'platform' | 'cross-platform'
  /**
   * The account's password, for an account that has one and no second factor: a passkey is a lasting way
   * in, so the session alone does not add one (docs/passkeys.md#registering-a-passkey).
   */
  readonly password?: string
}

export interface SignInPasskeyInput {
  /**
   * Conditional UI: wait for the user to pick a passkey from the autofill menu of an
   * input with `autocomplete="username webauthn"`, instead of opening a dialog.
   */
  readonly autoFill?: boolean
}

/** Options, `navigator.credentials.create()`, verification: a new passkey for the signed-in user. */
export async function addPasskey(context: ActionContext, input: AddPasskeyInput = {}, options?: CallOptions): Promise<CallResult<unknown>> {
  const query = input.authenticatorAttachment ? { authenticatorAttachment: input.authenticatorAttachment } : undefined
  const creation = await context.call(passkeyRoutes.passkey.generateRegisterOptions, query, options)
  if (creation.error) return creation
  let response: Awaited<ReturnType<Browser['startRegistration']>>
  try {
    const { startRegistration } = await browser()
    // The route's output schema checked the fields the library reads; the rest is the server's JSON as sent.
    response = await startRegistration({ optionsJSON: creation.data as PublicKeyCredentialCreationOptionsJSON })
  } catch (error) {
    return ceremonyFailure(error)
  }
  const body = { response, ...(input.name ? { name: input.name } : {}), ...(input.password ? { password: input.password } : {}) }
  return context.call(passkeyRoutes.passkey.verifyRegistration, body, options)
}

/** Options, `navigator.credentials.get()` (or the autofill menu), verification: a session. */
export async function signInPasskey(context: ActionContext, input: SignInPasskeyInput = {}, options?: CallOptions): Promise<CallResult<unknown>> {
  let lib: Browser
  try {
    lib = await browser()
  } catch (error) {
    return ceremonyFailure(error)
  }
  if (input.autoFill && !(await lib.browserSupportsWebAuthnAutofill())) return failure('PASSKEY_NOT_SUPPORTED')
  const request = await context.call(passkeyRoutes.passkey.generateAuthenticateOptions, undefined, options)
  if (request.error) return request
  let response: Awaited<ReturnType<Browser['startAuthentication']>>
  try {
    response = await lib.startAuthentication({
      optionsJSON: request.data as PublicKeyCredentialRequestOptionsJSON,
      useBrowserAutofill: input.autoFill === true,
    })
  } catch (error) {
    return ceremonyFailure(error)
  }
  return context.call(passkeyRoutes.passkey.verifyAuthentication, { response }, options)
}

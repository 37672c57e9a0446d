/**
 * @module
 * `phoneNumber(options)`: phone numbers proven by SMS codes (docs/phone-number.md).
 * Two user fields (schema.ts); codes in core's hashed one-time code store;
 * `/phone-number/*` limited per client (10 a minute by default, as the
 * leading library's) and every number to its budget of codes. A number is
 * set only by proving it: sign-up and update-user refuse `phoneNumber`.
 */
import { AuthError, createAfterAnswer, definePlugin, type EndpointContext, type Row, type UserInput } from '@gatehouse/core'
import { PhoneNumberErrors } from './errors.js'
import { resolveOptions, type PhoneNumberOptions } from './options.js'
import { phoneNumberEndpoints } from './routes/index.js'
import { phoneNumberSchema } from './schema.js'

/** `phoneNumber` in a sign-up or update-user body: refused, as the number must be proven (POST /phone-number/verify). */
function refuseUnprovenNumber(_ctx: EndpointContext, input: UserInput): Row {
  if (input.body.phoneNumber !== undefined && input.body.phoneNumber !== null) throw new AuthError(PhoneNumberErrors.PHONE_NUMBER_CANNOT_BE_UPDATED)
  return {}
}

/**
 * @example
 * const auth = createAuth({
 *   baseURL: 'https://app.example.com',
 *   emailAndPassword: { enabled: true },
 *   plugins: [phoneNumber({ sendOTP: ({ phoneNumber, code }) => sms.queue(phoneNumber, `Your code: ${code}`), defaultCountry: 'GB' })],
 * })
 */
export function phoneNumber(options: PhoneNumberOptions) {
  const resolved = resolveOptions(options)
  const later = createAfterAnswer()
  return definePlugin({
    id: 'phone-number',
    // Named in the compile error of a client typed from this server without its client half (docs/client.md).
    clientHalf: { name: 'phoneNumberClient', from: '@gatehouse/phone-number/client' },
    schema: phoneNumberSchema,
    endpoints: phoneNumberEndpoints(resolved, later),
    errors: PhoneNumberErrors,
    userInput: refuseUnprovenNumber,
    rateLimit: [{ pathMatcher: (path: string) => path.startsWith('/phone-number/'), window: resolved.rateLimit.window, max: resolved.rateLimit.max }],
    /** Resolves once messages sent after their answer have gone (tests, graceful shutdown). */
    idle: () => later.idle(),
  })
}

/**
 * @module
 * Calls a configured mail callback. A failing callback becomes one clear
 * error (500 "Failed to send email"), logged without the message body or
 * link; callers undo what they prepared for the mail before rethrowing, so
 * no half-done state is left behind.
 */
import type { EndpointContext } from '../endpoint/context.js'
import { AuthError } from '../errors/catalogue.js'
import { CoreErrors } from '../errors/core-errors.js'

export async function deliverMail<T>(
  ctx: Pick<EndpointContext, 'request' | 'logger'>,
  kind: string,
  send: (data: T, mail: { request: Request | undefined }) => Promise<void> | void,
  data: T,
): Promise<void> {
  try {
    await send(data, { request: ctx.request })
  } catch (error) {
    ctx.logger.error('mail callback failed', { kind, error: error instanceof Error ? error.name : typeof error })
    throw new AuthError(CoreErrors.FAILED_TO_SEND_EMAIL, { cause: error })
  }
}

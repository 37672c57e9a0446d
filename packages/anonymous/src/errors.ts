/**
 * @module
 * The anonymous plugin's errors (docs/anonymous.md#errors): the leading
 * library's codes and messages, so its `anonymousClient()` reads them.
 */
import { defineErrors } from '@gatehouse/core'

export const AnonymousErrors = defineErrors({
  ANONYMOUS_USERS_CANNOT_SIGN_IN_AGAIN_ANONYMOUSLY: { status: 400, message: 'Anonymous users cannot sign in again anonymously' },
  USER_IS_NOT_ANONYMOUS: { status: 403, message: 'User is not anonymous' },
  DELETE_ANONYMOUS_USER_DISABLED: { status: 400, message: 'Deleting anonymous users is disabled' },
  INVALID_EMAIL_FORMAT: { status: 400, message: 'Email was not generated in a valid format' },
  ANONYMOUS_USERS_CANNOT_CHANGE_EMAIL: { status: 403, message: 'Guests sign up to use an address of their own' },
})

export type AnonymousErrorCode = keyof typeof AnonymousErrors

/**
 * @module
 * The magic-link endpoints by `auth.api` name (docs/magic-link.md#routes).
 */
import { createAfterAnswer, type AfterAnswer } from '@gatehouse/core'
import type { ResolvedMagicLinkOptions } from '../options.js'
import { signInMagicLink } from './sign-in-magic-link.js'
import { verifyMagicLink } from './verify-magic-link.js'
import { verifyMagicLinkPost } from './verify-magic-link-post.js'

export function magicLinkEndpoints(options: ResolvedMagicLinkOptions, later: AfterAnswer = createAfterAnswer()) {
  return {
    signInMagicLink: signInMagicLink(options, later),
    magicLinkVerify: verifyMagicLink(options),
    magicLinkVerifyPost: verifyMagicLinkPost(options),
  }
}

export type MagicLinkEndpoints = ReturnType<typeof magicLinkEndpoints>

/**
 * @module
 * What this plugin needs of the two-factor plugin, found among the auth's
 * plugins and never imported (docs/two-factor.md#for-other-plugins), as the
 * organization plugin is found (services/access.ts): whether signing a user
 * in from this browser takes Gatehouse's second step, and starting that step
 * after the IdP's sign-in instead of creating the session.
 */
import type { AuthContext, EndpointContext, Store, User } from '@gatehouse/core'

/** The two-factor plugin's `secondFactor` members this plugin calls. */
export interface SecondStep {
  /** Two-factor on, and no live "trust this device" cookie of the user in this browser. */
  challenged(ctx: EndpointContext, db: Store, userId: string): Promise<boolean>
  /** Sets the pending sign-in (the cookie the code page's verify call completes), in place of a session. */
  startPendingSignIn(
    ctx: EndpointContext,
    user: User,
    first: {
      readonly amr: readonly string[]
      readonly sessionFields?: Readonly<Record<string, string | number | boolean | null>>
      readonly rememberMe?: boolean
    },
  ): Promise<void>
}

/**
 * The registered two-factor plugin's second step, or null without the plugin.
 *
 * @throws Error when a two-factor plugin is there without these members (a version older than this
 * plugin's): a misconfiguration, answered as `internal_server_error` rather than a sign-in that skips it.
 *
 * @example
 * const step = secondStepOf(ctx.auth)
 * if (step && (await step.challenged(ctx, tx, user.id))) // no session: the second step, once tx committed
 */
export function secondStepOf(auth: Pick<AuthContext, 'plugins'>): SecondStep | null {
  const plugin = auth.plugins.find((candidate) => candidate.id === 'two-factor')
  if (!plugin) return null
  const members: unknown = 'secondFactor' in plugin ? plugin.secondFactor : undefined
  if (
    typeof members !== 'object' ||
    members === null ||
    !('challenged' in members) ||
    typeof members.challenged !== 'function' ||
    !('startPendingSignIn' in members) ||
    typeof members.startPendingSignIn !== 'function'
  ) {
    throw new Error('sso: the two-factor plugin offers no second step to start (use @gatehouse/two-factor of the same release)')
  }
  // Functions, checked just above; their contract is the two-factor plugin's (docs/two-factor.md#for-other-plugins).
  const challenged = members.challenged as SecondStep['challenged']
  const startPendingSignIn = members.startPendingSignIn as SecondStep['startPendingSignIn']
  return {
    challenged: (ctx, db, userId) => challenged(ctx, db, userId),
    startPendingSignIn: (ctx, user, first) => startPendingSignIn(ctx, user, first),
  }
}

/**
 * @module
 * The caller of an organization route and the organization it targets.
 * Routes resolve the target organization id once, from the body or query
 * or else the session's active organization, and use that one id for the
 * permission check and for every read and write after it: a route never
 * checks permissions on one organization and then acts on another.
 */
import { AuthError, type EndpointContext, type SessionWithUser } from '@gatehouse/core'
import { OrganizationErrors } from '../errors.js'

/** What organization services read from an endpoint context. */
export type OrgContext = Pick<EndpointContext, 'db' | 'auth' | 'clock' | 'cookies' | 'options' | 'logger' | 'request'>

/** A route context with a session (after `sessionMiddleware`). */
export type SessionContext = OrgContext & { readonly session: SessionWithUser }

/** The session's active organization id, or null (`session.activeOrganizationId`). */
export function activeOrganizationId(session: SessionWithUser): string | null {
  const value = session.session.activeOrganizationId
  return typeof value === 'string' && value !== '' ? value : null
}

export function activeTeamId(session: SessionWithUser): string | null {
  const value = session.session.activeTeamId
  return typeof value === 'string' && value !== '' ? value : null
}

/**
 * The organization a call targets: the one named in the input, else the
 * active one; 400 "No active organization" when there is neither.
 *
 * @example
 * const organizationId = targetOrganization(ctx.session, ctx.body.organizationId)
 */
export function targetOrganization(session: SessionWithUser, given: string | null | undefined): string {
  const id = given ?? activeOrganizationId(session)
  if (!id) throw new AuthError(OrganizationErrors.NO_ACTIVE_ORGANIZATION)
  return id
}

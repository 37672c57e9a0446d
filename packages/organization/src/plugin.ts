/**
 * @module
 * `organization(options)`: the plugin object (docs/plugins.md). Its schema
 * depends on the options (teams and run-time roles add tables); the
 * application's organization hooks become database hooks on the plugin's
 * models, so they run inside the same transactions as the writes and a
 * throwing before-hook vetoes the write. The plugin's own hook on deleting a
 * user keeps every organization with an owner (docs/organization.md#deleting-an-owner).
 */
import { definePlugin, type AuthContext, type DatabaseHookContext, type DatabaseHooks, type ModelHooks, type Store } from '@gatehouse/core'
import type { Statements } from './access/access-control.js'
import { invitationCleanup } from './cleanup.js'
import { OrganizationErrors } from './errors.js'
import { resolveOptions, type OrganizationOptions } from './options.js'
import { organizationEndpoints } from './routes/index.js'
import { organizationSchema } from './schema.js'
import { authorize } from './services/authorize.js'
import { ownerDeletionHook } from './services/owner-deletion.js'
import { provisionMember } from './services/provision-member.js'

/**
 * @example
 * const auth = createAuth({
 *   baseURL: 'https://app.example.com',
 *   plugins: [organization({ teams: { enabled: true }, sendInvitationEmail: ({ email, id }) => mailer.invite(email, id) })],
 * })
 * await auth.api.createOrganization({ body: { name: 'Acme', slug: 'acme' }, headers })
 */
export function organization(options: OrganizationOptions = {}) {
  const resolved = resolveOptions(options)
  const hooks: Record<string, ModelHooks> = {}
  for (const [model, modelHooks] of Object.entries(resolved.hooks)) if (modelHooks) hooks[model] = modelHooks
  let initialized: AuthContext | undefined
  // A write made by a request carries its context; otherwise the one this plugin was started with.
  const authFor = (ctx: DatabaseHookContext): AuthContext | undefined => (ctx.endpoint as { auth?: AuthContext } | undefined)?.auth ?? initialized
  // Whatever deletes a user row (delete-user, admin remove-user, the application) settles the organizations it
  // alone owns first, in the same transaction (docs/organization.md#deleting-an-owner).
  hooks.user = { delete: { before: ownerDeletionHook(resolved, authFor) } }
  return definePlugin({
    id: 'organization',
    // Named in the compile error of a client typed from this server without its client half (docs/client.md).
    clientHalf: { name: 'organizationClient', from: '@gatehouse/organization/client' },
    schema: organizationSchema(resolved),
    endpoints: organizationEndpoints(resolved),
    errors: OrganizationErrors,
    databaseHooks: hooks as DatabaseHooks,
    init: (ctx: AuthContext) => {
      initialized = ctx
      // invite-member answers 200 either way; without this line nobody learns that no mail left (docs/organization.md#options).
      if (!resolved.sendInvitationEmail) {
        ctx.logger.warn('organization: sendInvitationEmail is not set, so invite-member stores invitations but mails nobody; pass sendInvitationEmail to organization() or deliver the invitation id yourself')
      }
    },
    cleanup: invitationCleanup,
    /**
     * The permission check of this plugin's roles (run-time roles included),
     * for other plugins that guard organization data: billing's organization routes.
     */
    authorize: (db: Store, input: { readonly organizationId: string; readonly userId: string; readonly permissions: Statements }) =>
      authorize(db, resolved, input),
    /**
     * Adds a user to an organization within its membership limit and roles, inside the caller's
     * transaction, or answers the member row already there: for plugins that provision members
     * themselves (the single sign-on plugin's just-in-time provisioning, docs/sso.md).
     */
    provisionMember: (db: Store, input: { readonly organizationId: string; readonly userId: string; readonly role: string | readonly string[] }) =>
      provisionMember(db, resolved, input),
    /**
     * What a plugin that writes members and teams itself must respect (the SCIM plugin, docs/scim.md#mapping):
     * the creator role, whose holders it never changes, and the team settings and limits.
     */
    memberRules: { creatorRole: resolved.creatorRole, teams: resolved.teams },
  })
}

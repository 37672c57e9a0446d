// Gatehouse's tables for Drizzle (postgres), written by `gatehouse generate --format drizzle --dialect postgres`.
// Generate it again after adding a plugin or an additional field, then run `drizzle-kit generate` (docs/adapters.md#using-drizzle).
import { relations } from 'drizzle-orm'
import { pgTable, text, doublePrecision, bigint, boolean, timestamp, index, uniqueIndex, foreignKey, customType } from 'drizzle-orm/pg-core'

/** JSON kept as text, as Gatehouse's own migrations store it. */
const jsonText = customType<{ data: unknown; driverData: string }>({
  dataType: () => 'text',
  toDriver: (value) => JSON.stringify(value),
  fromDriver: (value) => JSON.parse(value) as unknown,
})

/** The column type of Gatehouse's ids, for your columns that reference them: `ownerId: gatehouseId('owner_id').references(() => user.id)`. */
export const gatehouseId = (name: string) => text(name)

export const user = pgTable('user', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  emailVerified: boolean('emailVerified').notNull(),
  image: text('image'),
  createdAt: timestamp('createdAt', { withTimezone: true, mode: 'date' }).notNull(),
  updatedAt: timestamp('updatedAt', { withTimezone: true, mode: 'date' }).notNull(),
  credentialVersion: text('credentialVersion'),
  role: text('role'),
  banned: boolean('banned'),
  banReason: text('banReason'),
  banExpires: timestamp('banExpires', { withTimezone: true, mode: 'date' }),
  twoFactorEnabled: boolean('twoFactorEnabled'),
  username: text('username'),
  displayUsername: text('displayUsername'),
  phoneNumber: text('phoneNumber'),
  phoneNumberVerified: boolean('phoneNumberVerified'),
  lastLoginMethod: text('lastLoginMethod'),
  isAnonymous: boolean('isAnonymous'),
}, (table) => [
  uniqueIndex('user_email_uniq').on(table.email),
  uniqueIndex('user_username_uniq').on(table.username),
  uniqueIndex('user_phoneNumber_uniq').on(table.phoneNumber),
])

export const session = pgTable('session', {
  id: text('id').primaryKey(),
  userId: text('userId').notNull(),
  token: text('token').notNull(),
  expiresAt: timestamp('expiresAt', { withTimezone: true, mode: 'date' }).notNull(),
  createdAt: timestamp('createdAt', { withTimezone: true, mode: 'date' }).notNull(),
  updatedAt: timestamp('updatedAt', { withTimezone: true, mode: 'date' }).notNull(),
  ipAddress: text('ipAddress'),
  userAgent: text('userAgent'),
  amr: text('amr'),
  activeOrganizationId: text('activeOrganizationId'),
  activeTeamId: text('activeTeamId'),
  impersonatedBy: text('impersonatedBy'),
  twoFactorVerifiedAt: timestamp('twoFactorVerifiedAt', { withTimezone: true, mode: 'date' }),
  twoFactorMethod: text('twoFactorMethod'),
  ssoProviderId: text('ssoProviderId'),
}, (table) => [
  index('session_userId_idx').on(table.userId),
  uniqueIndex('session_token_uniq').on(table.token),
  index('session_impersonatedBy_idx').on(table.impersonatedBy),
  index('session_ssoProviderId_idx').on(table.ssoProviderId),
  foreignKey({ name: 'session_userId_fk', columns: [table.userId], foreignColumns: [user.id] }).onDelete('cascade'),
])

export const account = pgTable('account', {
  id: text('id').primaryKey(),
  providerId: text('providerId').notNull(),
  accountId: text('accountId').notNull(),
  userId: text('userId').notNull(),
  accessToken: text('accessToken'),
  refreshToken: text('refreshToken'),
  idToken: text('idToken'),
  accessTokenExpiresAt: timestamp('accessTokenExpiresAt', { withTimezone: true, mode: 'date' }),
  refreshTokenExpiresAt: timestamp('refreshTokenExpiresAt', { withTimezone: true, mode: 'date' }),
  scope: text('scope'),
  password: text('password'),
  createdAt: timestamp('createdAt', { withTimezone: true, mode: 'date' }).notNull(),
  updatedAt: timestamp('updatedAt', { withTimezone: true, mode: 'date' }).notNull(),
}, (table) => [
  index('account_userId_idx').on(table.userId),
  uniqueIndex('account_providerId_accountId_uniq').on(table.providerId, table.accountId),
  foreignKey({ name: 'account_userId_fk', columns: [table.userId], foreignColumns: [user.id] }).onDelete('cascade'),
])

export const verification = pgTable('verification', {
  id: text('id').primaryKey(),
  identifier: text('identifier').notNull(),
  value: text('value').notNull(),
  expiresAt: timestamp('expiresAt', { withTimezone: true, mode: 'date' }).notNull(),
  createdAt: timestamp('createdAt', { withTimezone: true, mode: 'date' }).notNull(),
  updatedAt: timestamp('updatedAt', { withTimezone: true, mode: 'date' }).notNull(),
}, (table) => [
  index('verification_identifier_idx').on(table.identifier),
])

export const rateLimit = pgTable('rateLimit', {
  id: text('id').primaryKey(),
  key: text('key').notNull(),
  count: doublePrecision('count').notNull(),
  lastRequest: bigint('lastRequest', { mode: 'number' }).notNull(),
}, (table) => [
  uniqueIndex('rateLimit_key_uniq').on(table.key),
])

export const organization = pgTable('organization', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  slug: text('slug').notNull(),
  logo: text('logo'),
  metadata: jsonText('metadata'),
  createdAt: timestamp('createdAt', { withTimezone: true, mode: 'date' }).notNull(),
}, (table) => [
  uniqueIndex('organization_slug_uniq').on(table.slug),
])

export const member = pgTable('member', {
  id: text('id').primaryKey(),
  organizationId: text('organizationId').notNull(),
  userId: text('userId').notNull(),
  role: text('role').notNull(),
  teamId: text('teamId'),
  createdAt: timestamp('createdAt', { withTimezone: true, mode: 'date' }).notNull(),
  suspendedAt: timestamp('suspendedAt', { withTimezone: true, mode: 'date' }),
}, (table) => [
  index('member_organizationId_idx').on(table.organizationId),
  index('member_userId_idx').on(table.userId),
  uniqueIndex('member_organizationId_userId_uniq').on(table.organizationId, table.userId),
  foreignKey({ name: 'member_organizationId_fk', columns: [table.organizationId], foreignColumns: [organization.id] }).onDelete('cascade'),
  foreignKey({ name: 'member_userId_fk', columns: [table.userId], foreignColumns: [user.id] }).onDelete('cascade'),
])

export const invitation = pgTable('invitation', {
  id: text('id').primaryKey(),
  organizationId: text('organizationId').notNull(),
  email: text('email').notNull(),
  role: text('role').notNull(),
  status: text('status').notNull(),
  teamId: text('teamId'),
  inviterId: text('inviterId').notNull(),
  expiresAt: timestamp('expiresAt', { withTimezone: true, mode: 'date' }).notNull(),
}, (table) => [
  index('invitation_organizationId_idx').on(table.organizationId),
  index('invitation_email_idx').on(table.email),
  foreignKey({ name: 'invitation_organizationId_fk', columns: [table.organizationId], foreignColumns: [organization.id] }).onDelete('cascade'),
  foreignKey({ name: 'invitation_inviterId_fk', columns: [table.inviterId], foreignColumns: [user.id] }).onDelete('cascade'),
])

export const team = pgTable('team', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  organizationId: text('organizationId').notNull(),
  createdAt: timestamp('createdAt', { withTimezone: true, mode: 'date' }).notNull(),
  updatedAt: timestamp('updatedAt', { withTimezone: true, mode: 'date' }),
}, (table) => [
  index('team_organizationId_idx').on(table.organizationId),
  foreignKey({ name: 'team_organizationId_fk', columns: [table.organizationId], foreignColumns: [organization.id] }).onDelete('cascade'),
])

export const teamMember = pgTable('teamMember', {
  id: text('id').primaryKey(),
  teamId: text('teamId').notNull(),
  userId: text('userId').notNull(),
  createdAt: timestamp('createdAt', { withTimezone: true, mode: 'date' }).notNull(),
}, (table) => [
  index('teamMember_teamId_idx').on(table.teamId),
  index('teamMember_userId_idx').on(table.userId),
  uniqueIndex('teamMember_teamId_userId_uniq').on(table.teamId, table.userId),
  foreignKey({ name: 'teamMember_teamId_fk', columns: [table.teamId], foreignColumns: [team.id] }).onDelete('cascade'),
  foreignKey({ name: 'teamMember_userId_fk', columns: [table.userId], foreignColumns: [user.id] }).onDelete('cascade'),
])

export const billingEvent = pgTable('billingEvent', {
  id: text('id').primaryKey(),
  webhookId: text('webhookId').notNull(),
  type: text('type'),
  status: text('status').notNull(),
  error: text('error'),
  issues: jsonText('issues'),
  payload: jsonText('payload').notNull(),
  timestamp: timestamp('timestamp', { withTimezone: true, mode: 'date' }),
  receivedAt: timestamp('receivedAt', { withTimezone: true, mode: 'date' }).notNull(),
  processedAt: timestamp('processedAt', { withTimezone: true, mode: 'date' }),
  attempts: doublePrecision('attempts').notNull(),
}, (table) => [
  uniqueIndex('billingEvent_webhookId_uniq').on(table.webhookId),
  index('billingEvent_status_idx').on(table.status),
])

export const billingCustomer = pgTable('billingCustomer', {
  id: text('id').primaryKey(),
  externalId: text('externalId'),
  email: text('email'),
  emailVerified: boolean('emailVerified').notNull(),
  name: text('name'),
  metadata: jsonText('metadata').notNull(),
  billingAddress: jsonText('billingAddress'),
  taxId: jsonText('taxId'),
  platformOrganizationId: text('platformOrganizationId').notNull(),
  avatarUrl: text('avatarUrl'),
  deletedAt: timestamp('deletedAt', { withTimezone: true, mode: 'date' }),
  stateVersion: bigint('stateVersion', { mode: 'number' }),
  createdAt: timestamp('createdAt', { withTimezone: true, mode: 'date' }).notNull(),
  modifiedAt: timestamp('modifiedAt', { withTimezone: true, mode: 'date' }),
  version: bigint('version', { mode: 'number' }).notNull(),
}, (table) => [
  index('billingCustomer_externalId_idx').on(table.externalId),
  index('billingCustomer_email_idx').on(table.email),
])

export const billingSubscription = pgTable('billingSubscription', {
  id: text('id').primaryKey(),
  customerId: text('customerId').notNull(),
  productId: text('productId').notNull(),
  status: text('status').notNull(),
  active: boolean('active').notNull(),
  amount: doublePrecision('amount').notNull(),
  currency: text('currency').notNull(),
  recurringInterval: text('recurringInterval').notNull(),
  currentPeriodStart: timestamp('currentPeriodStart', { withTimezone: true, mode: 'date' }).notNull(),
  currentPeriodEnd: timestamp('currentPeriodEnd', { withTimezone: true, mode: 'date' }),
  cancelAtPeriodEnd: boolean('cancelAtPeriodEnd').notNull(),
  canceledAt: timestamp('canceledAt', { withTimezone: true, mode: 'date' }),
  startedAt: timestamp('startedAt', { withTimezone: true, mode: 'date' }),
  endsAt: timestamp('endsAt', { withTimezone: true, mode: 'date' }),
  endedAt: timestamp('endedAt', { withTimezone: true, mode: 'date' }),
  discountId: text('discountId'),
  checkoutId: text('checkoutId'),
  customerCancellationReason: text('customerCancellationReason'),
  customerCancellationComment: text('customerCancellationComment'),
  metadata: jsonText('metadata').notNull(),
  customFieldData: jsonText('customFieldData'),
  meters: jsonText('meters').notNull(),
  createdAt: timestamp('createdAt', { withTimezone: true, mode: 'date' }).notNull(),
  modifiedAt: timestamp('modifiedAt', { withTimezone: true, mode: 'date' }),
  version: bigint('version', { mode: 'number' }).notNull(),
}, (table) => [
  index('billingSubscription_customerId_idx').on(table.customerId),
  index('billingSubscription_productId_idx').on(table.productId),
])

export const billingOrder = pgTable('billingOrder', {
  id: text('id').primaryKey(),
  customerId: text('customerId').notNull(),
  productId: text('productId'),
  subscriptionId: text('subscriptionId'),
  status: text('status').notNull(),
  paid: boolean('paid').notNull(),
  billingReason: text('billingReason').notNull(),
  subtotalAmount: doublePrecision('subtotalAmount').notNull(),
  discountAmount: doublePrecision('discountAmount').notNull(),
  netAmount: doublePrecision('netAmount').notNull(),
  taxAmount: doublePrecision('taxAmount').notNull(),
  totalAmount: doublePrecision('totalAmount').notNull(),
  refundedAmount: doublePrecision('refundedAmount').notNull(),
  refundedTaxAmount: doublePrecision('refundedTaxAmount').notNull(),
  currency: text('currency').notNull(),
  discountId: text('discountId'),
  checkoutId: text('checkoutId'),
  items: jsonText('items').notNull(),
  metadata: jsonText('metadata').notNull(),
  createdAt: timestamp('createdAt', { withTimezone: true, mode: 'date' }).notNull(),
  modifiedAt: timestamp('modifiedAt', { withTimezone: true, mode: 'date' }),
  version: bigint('version', { mode: 'number' }).notNull(),
}, (table) => [
  index('billingOrder_customerId_idx').on(table.customerId),
  index('billingOrder_subscriptionId_idx').on(table.subscriptionId),
])

export const billingBenefitGrant = pgTable('billingBenefitGrant', {
  id: text('id').primaryKey(),
  customerId: text('customerId').notNull(),
  benefitId: text('benefitId').notNull(),
  benefitType: text('benefitType').notNull(),
  benefitMetadata: jsonText('benefitMetadata').notNull(),
  subscriptionId: text('subscriptionId'),
  orderId: text('orderId'),
  isGranted: boolean('isGranted').notNull(),
  isRevoked: boolean('isRevoked').notNull(),
  grantedAt: timestamp('grantedAt', { withTimezone: true, mode: 'date' }),
  revokedAt: timestamp('revokedAt', { withTimezone: true, mode: 'date' }),
  properties: jsonText('properties').notNull(),
  error: jsonText('error'),
  createdAt: timestamp('createdAt', { withTimezone: true, mode: 'date' }).notNull(),
  modifiedAt: timestamp('modifiedAt', { withTimezone: true, mode: 'date' }),
  version: bigint('version', { mode: 'number' }).notNull(),
}, (table) => [
  index('billingBenefitGrant_customerId_idx').on(table.customerId),
  index('billingBenefitGrant_benefitId_idx').on(table.benefitId),
])

export const billingCustomerMeter = pgTable('billingCustomerMeter', {
  id: text('id').primaryKey(),
  customerId: text('customerId').notNull(),
  meterId: text('meterId').notNull(),
  consumedUnits: doublePrecision('consumedUnits').notNull(),
  creditedUnits: doublePrecision('creditedUnits').notNull(),
  balance: doublePrecision('balance').notNull(),
  active: boolean('active').notNull(),
  createdAt: timestamp('createdAt', { withTimezone: true, mode: 'date' }).notNull(),
  modifiedAt: timestamp('modifiedAt', { withTimezone: true, mode: 'date' }),
  version: bigint('version', { mode: 'number' }).notNull(),
}, (table) => [
  index('billingCustomerMeter_customerId_idx').on(table.customerId),
])

export const billingCustomerSync = pgTable('billingCustomerSync', {
  id: text('id').primaryKey(),
  referenceId: text('referenceId').notNull(),
  action: text('action').notNull(),
  status: text('status').notNull(),
  revision: doublePrecision('revision').notNull(),
  attempts: doublePrecision('attempts').notNull(),
  nextAttemptAt: timestamp('nextAttemptAt', { withTimezone: true, mode: 'date' }).notNull(),
  claimedUntil: timestamp('claimedUntil', { withTimezone: true, mode: 'date' }),
  lastError: text('lastError'),
  email: text('email'),
  name: text('name'),
  createdAt: timestamp('createdAt', { withTimezone: true, mode: 'date' }).notNull(),
  updatedAt: timestamp('updatedAt', { withTimezone: true, mode: 'date' }).notNull(),
}, (table) => [
  uniqueIndex('billingCustomerSync_referenceId_uniq').on(table.referenceId),
  index('billingCustomerSync_status_idx').on(table.status),
  index('billingCustomerSync_nextAttemptAt_idx').on(table.nextAttemptAt),
])

export const oauthApplication = pgTable('oauthApplication', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  icon: text('icon'),
  metadata: jsonText('metadata'),
  clientId: text('clientId').notNull(),
  clientSecret: text('clientSecret'),
  redirectURLs: text('redirectURLs').notNull(),
  postLogoutRedirectURLs: text('postLogoutRedirectURLs'),
  type: text('type').notNull(),
  tokenEndpointAuthMethod: text('tokenEndpointAuthMethod').notNull(),
  grantTypes: text('grantTypes').notNull(),
  responseTypes: text('responseTypes').notNull(),
  scope: text('scope'),
  skipConsent: boolean('skipConsent').notNull(),
  disabled: boolean('disabled').notNull(),
  verified: boolean('verified').notNull(),
  userId: text('userId'),
  createdAt: timestamp('createdAt', { withTimezone: true, mode: 'date' }).notNull(),
  updatedAt: timestamp('updatedAt', { withTimezone: true, mode: 'date' }).notNull(),
}, (table) => [
  uniqueIndex('oauthApplication_clientId_uniq').on(table.clientId),
  index('oauthApplication_userId_idx').on(table.userId),
  foreignKey({ name: 'oauthApplication_userId_fk', columns: [table.userId], foreignColumns: [user.id] }).onDelete('cascade'),
])

export const oauthAccessToken = pgTable('oauthAccessToken', {
  id: text('id').primaryKey(),
  accessToken: text('accessToken').notNull(),
  refreshToken: text('refreshToken'),
  accessTokenExpiresAt: timestamp('accessTokenExpiresAt', { withTimezone: true, mode: 'date' }).notNull(),
  refreshTokenExpiresAt: timestamp('refreshTokenExpiresAt', { withTimezone: true, mode: 'date' }),
  clientId: text('clientId').notNull(),
  userId: text('userId').notNull(),
  scopes: text('scopes').notNull(),
  grantId: text('grantId').notNull(),
  rotatedAt: timestamp('rotatedAt', { withTimezone: true, mode: 'date' }),
  authTime: timestamp('authTime', { withTimezone: true, mode: 'date' }),
  grantedAt: timestamp('grantedAt', { withTimezone: true, mode: 'date' }),
  amr: text('amr'),
  acr: text('acr'),
  createdAt: timestamp('createdAt', { withTimezone: true, mode: 'date' }).notNull(),
  updatedAt: timestamp('updatedAt', { withTimezone: true, mode: 'date' }).notNull(),
}, (table) => [
  uniqueIndex('oauthAccessToken_accessToken_uniq').on(table.accessToken),
  uniqueIndex('oauthAccessToken_refreshToken_uniq').on(table.refreshToken),
  index('oauthAccessToken_clientId_idx').on(table.clientId),
  index('oauthAccessToken_userId_idx').on(table.userId),
  index('oauthAccessToken_grantId_idx').on(table.grantId),
  foreignKey({ name: 'oauthAccessToken_userId_fk', columns: [table.userId], foreignColumns: [user.id] }).onDelete('cascade'),
])

export const oauthConsent = pgTable('oauthConsent', {
  id: text('id').primaryKey(),
  clientId: text('clientId').notNull(),
  userId: text('userId').notNull(),
  scopes: text('scopes').notNull(),
  consentGiven: boolean('consentGiven').notNull(),
  revokedAt: timestamp('revokedAt', { withTimezone: true, mode: 'date' }),
  createdAt: timestamp('createdAt', { withTimezone: true, mode: 'date' }).notNull(),
  updatedAt: timestamp('updatedAt', { withTimezone: true, mode: 'date' }).notNull(),
}, (table) => [
  index('oauthConsent_clientId_idx').on(table.clientId),
  index('oauthConsent_userId_idx').on(table.userId),
  uniqueIndex('oauthConsent_clientId_userId_uniq').on(table.clientId, table.userId),
  foreignKey({ name: 'oauthConsent_userId_fk', columns: [table.userId], foreignColumns: [user.id] }).onDelete('cascade'),
])

export const jwks = pgTable('jwks', {
  id: text('id').primaryKey(),
  publicKey: text('publicKey').notNull(),
  privateKey: text('privateKey').notNull(),
  alg: text('alg').notNull(),
  supersedes: text('supersedes').notNull(),
  createdAt: timestamp('createdAt', { withTimezone: true, mode: 'date' }).notNull(),
  activatesAt: timestamp('activatesAt', { withTimezone: true, mode: 'date' }).notNull(),
  expiresAt: timestamp('expiresAt', { withTimezone: true, mode: 'date' }).notNull(),
}, (table) => [
  index('jwks_alg_idx').on(table.alg),
  uniqueIndex('jwks_supersedes_uniq').on(table.supersedes),
])

export const twoFactor = pgTable('twoFactor', {
  id: text('id').primaryKey(),
  userId: text('userId').notNull(),
  secret: text('secret').notNull(),
  lastUsedStep: doublePrecision('lastUsedStep'),
  failedAttempts: doublePrecision('failedAttempts').notNull(),
  lockedUntil: timestamp('lockedUntil', { withTimezone: true, mode: 'date' }),
  lockouts: doublePrecision('lockouts').notNull(),
  backupFailedAttempts: doublePrecision('backupFailedAttempts').notNull(),
  backupLockedUntil: timestamp('backupLockedUntil', { withTimezone: true, mode: 'date' }),
  backupLockouts: doublePrecision('backupLockouts').notNull(),
  trustVersion: text('trustVersion').notNull(),
  otpEnabled: boolean('otpEnabled').notNull(),
  createdAt: timestamp('createdAt', { withTimezone: true, mode: 'date' }).notNull(),
  updatedAt: timestamp('updatedAt', { withTimezone: true, mode: 'date' }).notNull(),
}, (table) => [
  uniqueIndex('twoFactor_userId_uniq').on(table.userId),
  foreignKey({ name: 'twoFactor_userId_fk', columns: [table.userId], foreignColumns: [user.id] }).onDelete('cascade'),
])

export const twoFactorBackupCode = pgTable('twoFactorBackupCode', {
  id: text('id').primaryKey(),
  userId: text('userId').notNull(),
  codeHash: text('codeHash').notNull(),
  createdAt: timestamp('createdAt', { withTimezone: true, mode: 'date' }).notNull(),
}, (table) => [
  index('twoFactorBackupCode_userId_idx').on(table.userId),
  uniqueIndex('twoFactorBackupCode_codeHash_uniq').on(table.codeHash),
  foreignKey({ name: 'twoFactorBackupCode_userId_fk', columns: [table.userId], foreignColumns: [user.id] }).onDelete('cascade'),
])

export const passkey = pgTable('passkey', {
  id: text('id').primaryKey(),
  userId: text('userId').notNull(),
  name: text('name'),
  credentialID: text('credentialID').notNull(),
  credentialIDHash: text('credentialIDHash').notNull(),
  publicKey: text('publicKey').notNull(),
  counter: bigint('counter', { mode: 'number' }).notNull(),
  deviceType: text('deviceType').notNull(),
  backedUp: boolean('backedUp').notNull(),
  transports: text('transports'),
  aaguid: text('aaguid'),
  userHandle: text('userHandle').notNull(),
  createdAt: timestamp('createdAt', { withTimezone: true, mode: 'date' }).notNull(),
}, (table) => [
  index('passkey_userId_idx').on(table.userId),
  uniqueIndex('passkey_credentialIDHash_uniq').on(table.credentialIDHash),
  foreignKey({ name: 'passkey_userId_fk', columns: [table.userId], foreignColumns: [user.id] }).onDelete('cascade'),
])

export const ssoProvider = pgTable('ssoProvider', {
  id: text('id').primaryKey(),
  providerId: text('providerId').notNull(),
  issuer: text('issuer').notNull(),
  domain: text('domain').notNull(),
  domainVerified: boolean('domainVerified').notNull(),
  verifiedDomain: text('verifiedDomain'),
  oidcConfig: text('oidcConfig'),
  samlConfig: text('samlConfig'),
  twoFactor: text('twoFactor').notNull(),
  userId: text('userId'),
  organizationId: text('organizationId').notNull(),
  createdAt: timestamp('createdAt', { withTimezone: true, mode: 'date' }).notNull(),
  updatedAt: timestamp('updatedAt', { withTimezone: true, mode: 'date' }).notNull(),
}, (table) => [
  uniqueIndex('ssoProvider_providerId_uniq').on(table.providerId),
  index('ssoProvider_domain_idx').on(table.domain),
  uniqueIndex('ssoProvider_verifiedDomain_uniq').on(table.verifiedDomain),
  index('ssoProvider_userId_idx').on(table.userId),
  index('ssoProvider_organizationId_idx').on(table.organizationId),
  foreignKey({ name: 'ssoProvider_userId_fk', columns: [table.userId], foreignColumns: [user.id] }).onDelete('set null'),
  foreignKey({ name: 'ssoProvider_organizationId_fk', columns: [table.organizationId], foreignColumns: [organization.id] }).onDelete('cascade'),
])

export const scimToken = pgTable('scimToken', {
  id: text('id').primaryKey(),
  organizationId: text('organizationId').notNull(),
  providerId: text('providerId').notNull(),
  tokenHash: text('tokenHash').notNull(),
  start: text('start').notNull(),
  createdBy: text('createdBy'),
  expiresAt: timestamp('expiresAt', { withTimezone: true, mode: 'date' }),
  lastUsedAt: timestamp('lastUsedAt', { withTimezone: true, mode: 'date' }),
  createdAt: timestamp('createdAt', { withTimezone: true, mode: 'date' }).notNull(),
}, (table) => [
  index('scimToken_organizationId_idx').on(table.organizationId),
  uniqueIndex('scimToken_tokenHash_uniq').on(table.tokenHash),
  index('scimToken_createdBy_idx').on(table.createdBy),
  uniqueIndex('scimToken_organizationId_providerId_uniq').on(table.organizationId, table.providerId),
  foreignKey({ name: 'scimToken_organizationId_fk', columns: [table.organizationId], foreignColumns: [organization.id] }).onDelete('cascade'),
  foreignKey({ name: 'scimToken_createdBy_fk', columns: [table.createdBy], foreignColumns: [user.id] }).onDelete('set null'),
])

export const scimUser = pgTable('scimUser', {
  id: text('id').primaryKey(),
  organizationId: text('organizationId').notNull(),
  userId: text('userId').notNull(),
  userName: text('userName').notNull(),
  userNameKey: text('userNameKey').notNull(),
  externalId: text('externalId'),
  attributes: jsonText('attributes'),
  createdUser: boolean('createdUser').notNull(),
  createdAt: timestamp('createdAt', { withTimezone: true, mode: 'date' }).notNull(),
  updatedAt: timestamp('updatedAt', { withTimezone: true, mode: 'date' }).notNull(),
}, (table) => [
  index('scimUser_organizationId_idx').on(table.organizationId),
  index('scimUser_userId_idx').on(table.userId),
  uniqueIndex('scimUser_organizationId_userId_uniq').on(table.organizationId, table.userId),
  uniqueIndex('scimUser_organizationId_userNameKey_uniq').on(table.organizationId, table.userNameKey),
  uniqueIndex('scimUser_organizationId_externalId_uniq').on(table.organizationId, table.externalId),
  foreignKey({ name: 'scimUser_organizationId_fk', columns: [table.organizationId], foreignColumns: [organization.id] }).onDelete('cascade'),
  foreignKey({ name: 'scimUser_userId_fk', columns: [table.userId], foreignColumns: [user.id] }).onDelete('cascade'),
])

export const scimGroup = pgTable('scimGroup', {
  id: text('id').primaryKey(),
  organizationId: text('organizationId').notNull(),
  teamId: text('teamId').notNull(),
  externalId: text('externalId'),
  createdAt: timestamp('createdAt', { withTimezone: true, mode: 'date' }).notNull(),
  updatedAt: timestamp('updatedAt', { withTimezone: true, mode: 'date' }).notNull(),
}, (table) => [
  index('scimGroup_organizationId_idx').on(table.organizationId),
  uniqueIndex('scimGroup_teamId_uniq').on(table.teamId),
  uniqueIndex('scimGroup_organizationId_externalId_uniq').on(table.organizationId, table.externalId),
  foreignKey({ name: 'scimGroup_organizationId_fk', columns: [table.organizationId], foreignColumns: [organization.id] }).onDelete('cascade'),
  foreignKey({ name: 'scimGroup_teamId_fk', columns: [table.teamId], foreignColumns: [team.id] }).onDelete('cascade'),
])

export const apikey = pgTable('apikey', {
  id: text('id').primaryKey(),
  configId: text('configId'),
  name: text('name'),
  start: text('start'),
  prefix: text('prefix'),
  key: text('key').notNull(),
  referenceId: text('referenceId').notNull(),
  referenceType: text('referenceType'),
  refillInterval: doublePrecision('refillInterval'),
  refillAmount: doublePrecision('refillAmount'),
  lastRefillAt: timestamp('lastRefillAt', { withTimezone: true, mode: 'date' }),
  enabled: boolean('enabled').notNull(),
  rateLimitEnabled: boolean('rateLimitEnabled').notNull(),
  rateLimitTimeWindow: doublePrecision('rateLimitTimeWindow'),
  rateLimitMax: doublePrecision('rateLimitMax'),
  requestCount: doublePrecision('requestCount').notNull(),
  remaining: doublePrecision('remaining'),
  lastRequest: timestamp('lastRequest', { withTimezone: true, mode: 'date' }),
  expiresAt: timestamp('expiresAt', { withTimezone: true, mode: 'date' }),
  createdAt: timestamp('createdAt', { withTimezone: true, mode: 'date' }).notNull(),
  updatedAt: timestamp('updatedAt', { withTimezone: true, mode: 'date' }).notNull(),
  permissions: text('permissions'),
  metadata: text('metadata'),
}, (table) => [
  uniqueIndex('apikey_key_uniq').on(table.key),
  index('apikey_referenceId_idx').on(table.referenceId),
  index('apikey_expiresAt_idx').on(table.expiresAt),
])

export const userRelations = relations(user, ({ many }) => ({
  sessions: many(session),
  accounts: many(account),
  members: many(member),
  invitations: many(invitation),
  teamMembers: many(teamMember),
  oauthApplications: many(oauthApplication),
  oauthAccessTokens: many(oauthAccessToken),
  oauthConsents: many(oauthConsent),
  twoFactors: many(twoFactor),
  twoFactorBackupCodes: many(twoFactorBackupCode),
  passkeys: many(passkey),
  ssoProviders: many(ssoProvider),
  scimTokens: many(scimToken),
  scimUsers: many(scimUser),
}))

export const sessionRelations = relations(session, ({ one }) => ({
  user: one(user, { fields: [session.userId], references: [user.id] }),
}))

export const accountRelations = relations(account, ({ one }) => ({
  user: one(user, { fields: [account.userId], references: [user.id] }),
}))

export const organizationRelations = relations(organization, ({ many }) => ({
  members: many(member),
  invitations: many(invitation),
  teams: many(team),
  ssoProviders: many(ssoProvider),
  scimTokens: many(scimToken),
  scimUsers: many(scimUser),
  scimGroups: many(scimGroup),
}))

export const memberRelations = relations(member, ({ one }) => ({
  organization: one(organization, { fields: [member.organizationId], references: [organization.id] }),
  user: one(user, { fields: [member.userId], references: [user.id] }),
}))

export const invitationRelations = relations(invitation, ({ one }) => ({
  organization: one(organization, { fields: [invitation.organizationId], references: [organization.id] }),
  inviter: one(user, { fields: [invitation.inviterId], references: [user.id] }),
}))

export const teamRelations = relations(team, ({ one, many }) => ({
  organization: one(organization, { fields: [team.organizationId], references: [organization.id] }),
  teamMembers: many(teamMember),
  scimGroups: many(scimGroup),
}))

export const teamMemberRelations = relations(teamMember, ({ one }) => ({
  team: one(team, { fields: [teamMember.teamId], references: [team.id] }),
  user: one(user, { fields: [teamMember.userId], references: [user.id] }),
}))

export const oauthApplicationRelations = relations(oauthApplication, ({ one }) => ({
  user: one(user, { fields: [oauthApplication.userId], references: [user.id] }),
}))

export const oauthAccessTokenRelations = relations(oauthAccessToken, ({ one }) => ({
  user: one(user, { fields: [oauthAccessToken.userId], references: [user.id] }),
}))

export const oauthConsentRelations = relations(oauthConsent, ({ one }) => ({
  user: one(user, { fields: [oauthConsent.userId], references: [user.id] }),
}))

export const twoFactorRelations = relations(twoFactor, ({ one }) => ({
  user: one(user, { fields: [twoFactor.userId], references: [user.id] }),
}))

export const twoFactorBackupCodeRelations = relations(twoFactorBackupCode, ({ one }) => ({
  user: one(user, { fields: [twoFactorBackupCode.userId], references: [user.id] }),
}))

export const passkeyRelations = relations(passkey, ({ one }) => ({
  user: one(user, { fields: [passkey.userId], references: [user.id] }),
}))

export const ssoProviderRelations = relations(ssoProvider, ({ one }) => ({
  user: one(user, { fields: [ssoProvider.userId], references: [user.id] }),
  organization: one(organization, { fields: [ssoProvider.organizationId], references: [organization.id] }),
}))

export const scimTokenRelations = relations(scimToken, ({ one }) => ({
  organization: one(organization, { fields: [scimToken.organizationId], references: [organization.id] }),
  createdByRow: one(user, { fields: [scimToken.createdBy], references: [user.id] }),
}))

export const scimUserRelations = relations(scimUser, ({ one }) => ({
  organization: one(organization, { fields: [scimUser.organizationId], references: [organization.id] }),
  user: one(user, { fields: [scimUser.userId], references: [user.id] }),
}))

export const scimGroupRelations = relations(scimGroup, ({ one }) => ({
  organization: one(organization, { fields: [scimGroup.organizationId], references: [organization.id] }),
  team: one(team, { fields: [scimGroup.teamId], references: [team.id] }),
}))

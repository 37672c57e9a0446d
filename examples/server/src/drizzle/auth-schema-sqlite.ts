// Gatehouse's tables for Drizzle (sqlite), written by `gatehouse generate --format drizzle --dialect sqlite`.
// Generate it again after adding a plugin or an additional field, then run `drizzle-kit generate` (docs/adapters.md#using-drizzle).
import { relations } from 'drizzle-orm'
import { sqliteTable, text, real, integer, index, uniqueIndex, foreignKey, customType } from 'drizzle-orm/sqlite-core'

/** Dates as ISO-8601 text, which sorts and compares in time order, as Gatehouse's own migrations store them. */
const isoDate = customType<{ data: Date; driverData: string }>({
  dataType: () => 'text',
  toDriver: (value) => value.toISOString(),
  fromDriver: (value) => new Date(value),
})

/** The column type of Gatehouse's ids, for your columns that reference them: `ownerId: gatehouseId('owner_id').references(() => user.id)`. */
export const gatehouseId = (name: string) => text(name)

export const user = sqliteTable('user', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  emailVerified: integer('emailVerified', { mode: 'boolean' }).notNull(),
  image: text('image'),
  createdAt: isoDate('createdAt').notNull(),
  updatedAt: isoDate('updatedAt').notNull(),
  credentialVersion: text('credentialVersion'),
  role: text('role'),
  banned: integer('banned', { mode: 'boolean' }),
  banReason: text('banReason'),
  banExpires: isoDate('banExpires'),
  twoFactorEnabled: integer('twoFactorEnabled', { mode: 'boolean' }),
  username: text('username'),
  displayUsername: text('displayUsername'),
  phoneNumber: text('phoneNumber'),
  phoneNumberVerified: integer('phoneNumberVerified', { mode: 'boolean' }),
  lastLoginMethod: text('lastLoginMethod'),
  isAnonymous: integer('isAnonymous', { mode: 'boolean' }),
}, (table) => [
  uniqueIndex('user_email_uniq').on(table.email),
  uniqueIndex('user_username_uniq').on(table.username),
  uniqueIndex('user_phoneNumber_uniq').on(table.phoneNumber),
])

export const session = sqliteTable('session', {
  id: text('id').primaryKey(),
  userId: text('userId').notNull(),
  token: text('token').notNull(),
  expiresAt: isoDate('expiresAt').notNull(),
  createdAt: isoDate('createdAt').notNull(),
  updatedAt: isoDate('updatedAt').notNull(),
  ipAddress: text('ipAddress'),
  userAgent: text('userAgent'),
  amr: text('amr'),
  activeOrganizationId: text('activeOrganizationId'),
  activeTeamId: text('activeTeamId'),
  impersonatedBy: text('impersonatedBy'),
  twoFactorVerifiedAt: isoDate('twoFactorVerifiedAt'),
  twoFactorMethod: text('twoFactorMethod'),
  ssoProviderId: text('ssoProviderId'),
}, (table) => [
  index('session_userId_idx').on(table.userId),
  uniqueIndex('session_token_uniq').on(table.token),
  index('session_impersonatedBy_idx').on(table.impersonatedBy),
  index('session_ssoProviderId_idx').on(table.ssoProviderId),
  foreignKey({ name: 'session_userId_fk', columns: [table.userId], foreignColumns: [user.id] }).onDelete('cascade'),
])

export const account = sqliteTable('account', {
  id: text('id').primaryKey(),
  providerId: text('providerId').notNull(),
  accountId: text('accountId').notNull(),
  userId: text('userId').notNull(),
  accessToken: text('accessToken'),
  refreshToken: text('refreshToken'),
  idToken: text('idToken'),
  accessTokenExpiresAt: isoDate('accessTokenExpiresAt'),
  refreshTokenExpiresAt: isoDate('refreshTokenExpiresAt'),
  scope: text('scope'),
  password: text('password'),
  createdAt: isoDate('createdAt').notNull(),
  updatedAt: isoDate('updatedAt').notNull(),
}, (table) => [
  index('account_userId_idx').on(table.userId),
  uniqueIndex('account_providerId_accountId_uniq').on(table.providerId, table.accountId),
  foreignKey({ name: 'account_userId_fk', columns: [table.userId], foreignColumns: [user.id] }).onDelete('cascade'),
])

export const verification = sqliteTable('verification', {
  id: text('id').primaryKey(),
  identifier: text('identifier').notNull(),
  value: text('value').notNull(),
  expiresAt: isoDate('expiresAt').notNull(),
  createdAt: isoDate('createdAt').notNull(),
  updatedAt: isoDate('updatedAt').notNull(),
}, (table) => [
  index('verification_identifier_idx').on(table.identifier),
])

export const rateLimit = sqliteTable('rateLimit', {
  id: text('id').primaryKey(),
  key: text('key').notNull(),
  count: real('count').notNull(),
  lastRequest: integer('lastRequest', { mode: 'number' }).notNull(),
}, (table) => [
  uniqueIndex('rateLimit_key_uniq').on(table.key),
])

export const organization = sqliteTable('organization', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  slug: text('slug').notNull(),
  logo: text('logo'),
  metadata: text('metadata', { mode: 'json' }),
  createdAt: isoDate('createdAt').notNull(),
}, (table) => [
  uniqueIndex('organization_slug_uniq').on(table.slug),
])

export const member = sqliteTable('member', {
  id: text('id').primaryKey(),
  organizationId: text('organizationId').notNull(),
  userId: text('userId').notNull(),
  role: text('role').notNull(),
  teamId: text('teamId'),
  createdAt: isoDate('createdAt').notNull(),
  suspendedAt: isoDate('suspendedAt'),
}, (table) => [
  index('member_organizationId_idx').on(table.organizationId),
  index('member_userId_idx').on(table.userId),
  uniqueIndex('member_organizationId_userId_uniq').on(table.organizationId, table.userId),
  foreignKey({ name: 'member_organizationId_fk', columns: [table.organizationId], foreignColumns: [organization.id] }).onDelete('cascade'),
  foreignKey({ name: 'member_userId_fk', columns: [table.userId], foreignColumns: [user.id] }).onDelete('cascade'),
])

export const invitation = sqliteTable('invitation', {
  id: text('id').primaryKey(),
  organizationId: text('organizationId').notNull(),
  email: text('email').notNull(),
  role: text('role').notNull(),
  status: text('status').notNull(),
  teamId: text('teamId'),
  inviterId: text('inviterId').notNull(),
  expiresAt: isoDate('expiresAt').notNull(),
}, (table) => [
  index('invitation_organizationId_idx').on(table.organizationId),
  index('invitation_email_idx').on(table.email),
  foreignKey({ name: 'invitation_organizationId_fk', columns: [table.organizationId], foreignColumns: [organization.id] }).onDelete('cascade'),
  foreignKey({ name: 'invitation_inviterId_fk', columns: [table.inviterId], foreignColumns: [user.id] }).onDelete('cascade'),
])

export const team = sqliteTable('team', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  organizationId: text('organizationId').notNull(),
  createdAt: isoDate('createdAt').notNull(),
  updatedAt: isoDate('updatedAt'),
}, (table) => [
  index('team_organizationId_idx').on(table.organizationId),
  foreignKey({ name: 'team_organizationId_fk', columns: [table.organizationId], foreignColumns: [organization.id] }).onDelete('cascade'),
])

export const teamMember = sqliteTable('teamMember', {
  id: text('id').primaryKey(),
  teamId: text('teamId').notNull(),
  userId: text('userId').notNull(),
  createdAt: isoDate('createdAt').notNull(),
}, (table) => [
  index('teamMember_teamId_idx').on(table.teamId),
  index('teamMember_userId_idx').on(table.userId),
  uniqueIndex('teamMember_teamId_userId_uniq').on(table.teamId, table.userId),
  foreignKey({ name: 'teamMember_teamId_fk', columns: [table.teamId], foreignColumns: [team.id] }).onDelete('cascade'),
  foreignKey({ name: 'teamMember_userId_fk', columns: [table.userId], foreignColumns: [user.id] }).onDelete('cascade'),
])

export const billingEvent = sqliteTable('billingEvent', {
  id: text('id').primaryKey(),
  webhookId: text('webhookId').notNull(),
  type: text('type'),
  status: text('status').notNull(),
  error: text('error'),
  issues: text('issues', { mode: 'json' }),
  payload: text('payload', { mode: 'json' }).notNull(),
  timestamp: isoDate('timestamp'),
  receivedAt: isoDate('receivedAt').notNull(),
  processedAt: isoDate('processedAt'),
  attempts: real('attempts').notNull(),
}, (table) => [
  uniqueIndex('billingEvent_webhookId_uniq').on(table.webhookId),
  index('billingEvent_status_idx').on(table.status),
])

export const billingCustomer = sqliteTable('billingCustomer', {
  id: text('id').primaryKey(),
  externalId: text('externalId'),
  email: text('email'),
  emailVerified: integer('emailVerified', { mode: 'boolean' }).notNull(),
  name: text('name'),
  metadata: text('metadata', { mode: 'json' }).notNull(),
  billingAddress: text('billingAddress', { mode: 'json' }),
  taxId: text('taxId', { mode: 'json' }),
  platformOrganizationId: text('platformOrganizationId').notNull(),
  avatarUrl: text('avatarUrl'),
  deletedAt: isoDate('deletedAt'),
  stateVersion: integer('stateVersion', { mode: 'number' }),
  createdAt: isoDate('createdAt').notNull(),
  modifiedAt: isoDate('modifiedAt'),
  version: integer('version', { mode: 'number' }).notNull(),
}, (table) => [
  index('billingCustomer_externalId_idx').on(table.externalId),
  index('billingCustomer_email_idx').on(table.email),
])

export const billingSubscription = sqliteTable('billingSubscription', {
  id: text('id').primaryKey(),
  customerId: text('customerId').notNull(),
  productId: text('productId').notNull(),
  status: text('status').notNull(),
  active: integer('active', { mode: 'boolean' }).notNull(),
  amount: real('amount').notNull(),
  currency: text('currency').notNull(),
  recurringInterval: text('recurringInterval').notNull(),
  currentPeriodStart: isoDate('currentPeriodStart').notNull(),
  currentPeriodEnd: isoDate('currentPeriodEnd'),
  cancelAtPeriodEnd: integer('cancelAtPeriodEnd', { mode: 'boolean' }).notNull(),
  canceledAt: isoDate('canceledAt'),
  startedAt: isoDate('startedAt'),
  endsAt: isoDate('endsAt'),
  endedAt: isoDate('endedAt'),
  discountId: text('discountId'),
  checkoutId: text('checkoutId'),
  customerCancellationReason: text('customerCancellationReason'),
  customerCancellationComment: text('customerCancellationComment'),
  metadata: text('metadata', { mode: 'json' }).notNull(),
  customFieldData: text('customFieldData', { mode: 'json' }),
  meters: text('meters', { mode: 'json' }).notNull(),
  createdAt: isoDate('createdAt').notNull(),
  modifiedAt: isoDate('modifiedAt'),
  version: integer('version', { mode: 'number' }).notNull(),
}, (table) => [
  index('billingSubscription_customerId_idx').on(table.customerId),
  index('billingSubscription_productId_idx').on(table.productId),
])

export const billingOrder = sqliteTable('billingOrder', {
  id: text('id').primaryKey(),
  customerId: text('customerId').notNull(),
  productId: text('productId'),
  subscriptionId: text('subscriptionId'),
  status: text('status').notNull(),
  paid: integer('paid', { mode: 'boolean' }).notNull(),
  billingReason: text('billingReason').notNull(),
  subtotalAmount: real('subtotalAmount').notNull(),
  discountAmount: real('discountAmount').notNull(),
  netAmount: real('netAmount').notNull(),
  taxAmount: real('taxAmount').notNull(),
  totalAmount: real('totalAmount').notNull(),
  refundedAmount: real('refundedAmount').notNull(),
  refundedTaxAmount: real('refundedTaxAmount').notNull(),
  currency: text('currency').notNull(),
  discountId: text('discountId'),
  checkoutId: text('checkoutId'),
  items: text('items', { mode: 'json' }).notNull(),
  metadata: text('metadata', { mode: 'json' }).notNull(),
  createdAt: isoDate('createdAt').notNull(),
  modifiedAt: isoDate('modifiedAt'),
  version: integer('version', { mode: 'number' }).notNull(),
}, (table) => [
  index('billingOrder_customerId_idx').on(table.customerId),
  index('billingOrder_subscriptionId_idx').on(table.subscriptionId),
])

export const billingBenefitGrant = sqliteTable('billingBenefitGrant', {
  id: text('id').primaryKey(),
  customerId: text('customerId').notNull(),
  benefitId: text('benefitId').notNull(),
  benefitType: text('benefitType').notNull(),
  benefitMetadata: text('benefitMetadata', { mode: 'json' }).notNull(),
  subscriptionId: text('subscriptionId'),
  orderId: text('orderId'),
  isGranted: integer('isGranted', { mode: 'boolean' }).notNull(),
  isRevoked: integer('isRevoked', { mode: 'boolean' }).notNull(),
  grantedAt: isoDate('grantedAt'),
  revokedAt: isoDate('revokedAt'),
  properties: text('properties', { mode: 'json' }).notNull(),
  error: text('error', { mode: 'json' }),
  createdAt: isoDate('createdAt').notNull(),
  modifiedAt: isoDate('modifiedAt'),
  version: integer('version', { mode: 'number' }).notNull(),
}, (table) => [
  index('billingBenefitGrant_customerId_idx').on(table.customerId),
  index('billingBenefitGrant_benefitId_idx').on(table.benefitId),
])

export const billingCustomerMeter = sqliteTable('billingCustomerMeter', {
  id: text('id').primaryKey(),
  customerId: text('customerId').notNull(),
  meterId: text('meterId').notNull(),
  consumedUnits: real('consumedUnits').notNull(),
  creditedUnits: real('creditedUnits').notNull(),
  balance: real('balance').notNull(),
  active: integer('active', { mode: 'boolean' }).notNull(),
  createdAt: isoDate('createdAt').notNull(),
  modifiedAt: isoDate('modifiedAt'),
  version: integer('version', { mode: 'number' }).notNull(),
}, (table) => [
  index('billingCustomerMeter_customerId_idx').on(table.customerId),
])

export const billingCustomerSync = sqliteTable('billingCustomerSync', {
  id: text('id').primaryKey(),
  referenceId: text('referenceId').notNull(),
  action: text('action').notNull(),
  status: text('status').notNull(),
  revision: real('revision').notNull(),
  attempts: real('attempts').notNull(),
  nextAttemptAt: isoDate('nextAttemptAt').notNull(),
  claimedUntil: isoDate('claimedUntil'),
  lastError: text('lastError'),
  email: text('email'),
  name: text('name'),
  createdAt: isoDate('createdAt').notNull(),
  updatedAt: isoDate('updatedAt').notNull(),
}, (table) => [
  uniqueIndex('billingCustomerSync_referenceId_uniq').on(table.referenceId),
  index('billingCustomerSync_status_idx').on(table.status),
  index('billingCustomerSync_nextAttemptAt_idx').on(table.nextAttemptAt),
])

export const oauthApplication = sqliteTable('oauthApplication', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  icon: text('icon'),
  metadata: text('metadata', { mode: 'json' }),
  clientId: text('clientId').notNull(),
  clientSecret: text('clientSecret'),
  redirectURLs: text('redirectURLs').notNull(),
  postLogoutRedirectURLs: text('postLogoutRedirectURLs'),
  type: text('type').notNull(),
  tokenEndpointAuthMethod: text('tokenEndpointAuthMethod').notNull(),
  grantTypes: text('grantTypes').notNull(),
  responseTypes: text('responseTypes').notNull(),
  scope: text('scope'),
  skipConsent: integer('skipConsent', { mode: 'boolean' }).notNull(),
  disabled: integer('disabled', { mode: 'boolean' }).notNull(),
  verified: integer('verified', { mode: 'boolean' }).notNull(),
  userId: text('userId'),
  createdAt: isoDate('createdAt').notNull(),
  updatedAt: isoDate('updatedAt').notNull(),
}, (table) => [
  uniqueIndex('oauthApplication_clientId_uniq').on(table.clientId),
  index('oauthApplication_userId_idx').on(table.userId),
  foreignKey({ name: 'oauthApplication_userId_fk', columns: [table.userId], foreignColumns: [user.id] }).onDelete('cascade'),
])

export const oauthAccessToken = sqliteTable('oauthAccessToken', {
  id: text('id').primaryKey(),
  accessToken: text('accessToken').notNull(),
  refreshToken: text('refreshToken'),
  accessTokenExpiresAt: isoDate('accessTokenExpiresAt').notNull(),
  refreshTokenExpiresAt: isoDate('refreshTokenExpiresAt'),
  clientId: text('clientId').notNull(),
  userId: text('userId').notNull(),
  scopes: text('scopes').notNull(),
  grantId: text('grantId').notNull(),
  rotatedAt: isoDate('rotatedAt'),
  authTime: isoDate('authTime'),
  grantedAt: isoDate('grantedAt'),
  amr: text('amr'),
  acr: text('acr'),
  createdAt: isoDate('createdAt').notNull(),
  updatedAt: isoDate('updatedAt').notNull(),
}, (table) => [
  uniqueIndex('oauthAccessToken_accessToken_uniq').on(table.accessToken),
  uniqueIndex('oauthAccessToken_refreshToken_uniq').on(table.refreshToken),
  index('oauthAccessToken_clientId_idx').on(table.clientId),
  index('oauthAccessToken_userId_idx').on(table.userId),
  index('oauthAccessToken_grantId_idx').on(table.grantId),
  foreignKey({ name: 'oauthAccessToken_userId_fk', columns: [table.userId], foreignColumns: [user.id] }).onDelete('cascade'),
])

export const oauthConsent = sqliteTable('oauthConsent', {
  id: text('id').primaryKey(),
  clientId: text('clientId').notNull(),
  userId: text('userId').notNull(),
  scopes: text('scopes').notNull(),
  consentGiven: integer('consentGiven', { mode: 'boolean' }).notNull(),
  revokedAt: isoDate('revokedAt'),
  createdAt: isoDate('createdAt').notNull(),
  updatedAt: isoDate('updatedAt').notNull(),
}, (table) => [
  index('oauthConsent_clientId_idx').on(table.clientId),
  index('oauthConsent_userId_idx').on(table.userId),
  uniqueIndex('oauthConsent_clientId_userId_uniq').on(table.clientId, table.userId),
  foreignKey({ name: 'oauthConsent_userId_fk', columns: [table.userId], foreignColumns: [user.id] }).onDelete('cascade'),
])

export const jwks = sqliteTable('jwks', {
  id: text('id').primaryKey(),
  publicKey: text('publicKey').notNull(),
  privateKey: text('privateKey').notNull(),
  alg: text('alg').notNull(),
  supersedes: text('supersedes').notNull(),
  createdAt: isoDate('createdAt').notNull(),
  activatesAt: isoDate('activatesAt').notNull(),
  expiresAt: isoDate('expiresAt').notNull(),
}, (table) => [
  index('jwks_alg_idx').on(table.alg),
  uniqueIndex('jwks_supersedes_uniq').on(table.supersedes),
])

export const twoFactor = sqliteTable('twoFactor', {
  id: text('id').primaryKey(),
  userId: text('userId').notNull(),
  secret: text('secret').notNull(),
  lastUsedStep: real('lastUsedStep'),
  failedAttempts: real('failedAttempts').notNull(),
  lockedUntil: isoDate('lockedUntil'),
  lockouts: real('lockouts').notNull(),
  backupFailedAttempts: real('backupFailedAttempts').notNull(),
  backupLockedUntil: isoDate('backupLockedUntil'),
  backupLockouts: real('backupLockouts').notNull(),
  trustVersion: text('trustVersion').notNull(),
  otpEnabled: integer('otpEnabled', { mode: 'boolean' }).notNull(),
  createdAt: isoDate('createdAt').notNull(),
  updatedAt: isoDate('updatedAt').notNull(),
}, (table) => [
  uniqueIndex('twoFactor_userId_uniq').on(table.userId),
  foreignKey({ name: 'twoFactor_userId_fk', columns: [table.userId], foreignColumns: [user.id] }).onDelete('cascade'),
])

export const twoFactorBackupCode = sqliteTable('twoFactorBackupCode', {
  id: text('id').primaryKey(),
  userId: text('userId').notNull(),
  codeHash: text('codeHash').notNull(),
  createdAt: isoDate('createdAt').notNull(),
}, (table) => [
  index('twoFactorBackupCode_userId_idx').on(table.userId),
  uniqueIndex('twoFactorBackupCode_codeHash_uniq').on(table.codeHash),
  foreignKey({ name: 'twoFactorBackupCode_userId_fk', columns: [table.userId], foreignColumns: [user.id] }).onDelete('cascade'),
])

export const passkey = sqliteTable('passkey', {
  id: text('id').primaryKey(),
  userId: text('userId').notNull(),
  name: text('name'),
  credentialID: text('credentialID').notNull(),
  credentialIDHash: text('credentialIDHash').notNull(),
  publicKey: text('publicKey').notNull(),
  counter: integer('counter', { mode: 'number' }).notNull(),
  deviceType: text('deviceType').notNull(),
  backedUp: integer('backedUp', { mode: 'boolean' }).notNull(),
  transports: text('transports'),
  aaguid: text('aaguid'),
  userHandle: text('userHandle').notNull(),
  createdAt: isoDate('createdAt').notNull(),
}, (table) => [
  index('passkey_userId_idx').on(table.userId),
  uniqueIndex('passkey_credentialIDHash_uniq').on(table.credentialIDHash),
  foreignKey({ name: 'passkey_userId_fk', columns: [table.userId], foreignColumns: [user.id] }).onDelete('cascade'),
])

export const ssoProvider = sqliteTable('ssoProvider', {
  id: text('id').primaryKey(),
  providerId: text('providerId').notNull(),
  issuer: text('issuer').notNull(),
  domain: text('domain').notNull(),
  domainVerified: integer('domainVerified', { mode: 'boolean' }).notNull(),
  verifiedDomain: text('verifiedDomain'),
  oidcConfig: text('oidcConfig'),
  samlConfig: text('samlConfig'),
  twoFactor: text('twoFactor').notNull(),
  userId: text('userId'),
  organizationId: text('organizationId').notNull(),
  createdAt: isoDate('createdAt').notNull(),
  updatedAt: isoDate('updatedAt').notNull(),
}, (table) => [
  uniqueIndex('ssoProvider_providerId_uniq').on(table.providerId),
  index('ssoProvider_domain_idx').on(table.domain),
  uniqueIndex('ssoProvider_verifiedDomain_uniq').on(table.verifiedDomain),
  index('ssoProvider_userId_idx').on(table.userId),
  index('ssoProvider_organizationId_idx').on(table.organizationId),
  foreignKey({ name: 'ssoProvider_userId_fk', columns: [table.userId], foreignColumns: [user.id] }).onDelete('set null'),
  foreignKey({ name: 'ssoProvider_organizationId_fk', columns: [table.organizationId], foreignColumns: [organization.id] }).onDelete('cascade'),
])

export const scimToken = sqliteTable('scimToken', {
  id: text('id').primaryKey(),
  organizationId: text('organizationId').notNull(),
  providerId: text('providerId').notNull(),
  tokenHash: text('tokenHash').notNull(),
  start: text('start').notNull(),
  createdBy: text('createdBy'),
  expiresAt: isoDate('expiresAt'),
  lastUsedAt: isoDate('lastUsedAt'),
  createdAt: isoDate('createdAt').notNull(),
}, (table) => [
  index('scimToken_organizationId_idx').on(table.organizationId),
  uniqueIndex('scimToken_tokenHash_uniq').on(table.tokenHash),
  index('scimToken_createdBy_idx').on(table.createdBy),
  uniqueIndex('scimToken_organizationId_providerId_uniq').on(table.organizationId, table.providerId),
  foreignKey({ name: 'scimToken_organizationId_fk', columns: [table.organizationId], foreignColumns: [organization.id] }).onDelete('cascade'),
  foreignKey({ name: 'scimToken_createdBy_fk', columns: [table.createdBy], foreignColumns: [user.id] }).onDelete('set null'),
])

export const scimUser = sqliteTable('scimUser', {
  id: text('id').primaryKey(),
  organizationId: text('organizationId').notNull(),
  userId: text('userId').notNull(),
  userName: text('userName').notNull(),
  userNameKey: text('userNameKey').notNull(),
  externalId: text('externalId'),
  attributes: text('attributes', { mode: 'json' }),
  createdUser: integer('createdUser', { mode: 'boolean' }).notNull(),
  createdAt: isoDate('createdAt').notNull(),
  updatedAt: isoDate('updatedAt').notNull(),
}, (table) => [
  index('scimUser_organizationId_idx').on(table.organizationId),
  index('scimUser_userId_idx').on(table.userId),
  uniqueIndex('scimUser_organizationId_userId_uniq').on(table.organizationId, table.userId),
  uniqueIndex('scimUser_organizationId_userNameKey_uniq').on(table.organizationId, table.userNameKey),
  uniqueIndex('scimUser_organizationId_externalId_uniq').on(table.organizationId, table.externalId),
  foreignKey({ name: 'scimUser_organizationId_fk', columns: [table.organizationId], foreignColumns: [organization.id] }).onDelete('cascade'),
  foreignKey({ name: 'scimUser_userId_fk', columns: [table.userId], foreignColumns: [user.id] }).onDelete('cascade'),
])

export const scimGroup = sqliteTable('scimGroup', {
  id: text('id').primaryKey(),
  organizationId: text('organizationId').notNull(),
  teamId: text('teamId').notNull(),
  externalId: text('externalId'),
  createdAt: isoDate('createdAt').notNull(),
  updatedAt: isoDate('updatedAt').notNull(),
}, (table) => [
  index('scimGroup_organizationId_idx').on(table.organizationId),
  uniqueIndex('scimGroup_teamId_uniq').on(table.teamId),
  uniqueIndex('scimGroup_organizationId_externalId_uniq').on(table.organizationId, table.externalId),
  foreignKey({ name: 'scimGroup_organizationId_fk', columns: [table.organizationId], foreignColumns: [organization.id] }).onDelete('cascade'),
  foreignKey({ name: 'scimGroup_teamId_fk', columns: [table.teamId], foreignColumns: [team.id] }).onDelete('cascade'),
])

export const apikey = sqliteTable('apikey', {
  id: text('id').primaryKey(),
  configId: text('configId'),
  name: text('name'),
  start: text('start'),
  prefix: text('prefix'),
  key: text('key').notNull(),
  referenceId: text('referenceId').notNull(),
  referenceType: text('referenceType'),
  refillInterval: real('refillInterval'),
  refillAmount: real('refillAmount'),
  lastRefillAt: isoDate('lastRefillAt'),
  enabled: integer('enabled', { mode: 'boolean' }).notNull(),
  rateLimitEnabled: integer('rateLimitEnabled', { mode: 'boolean' }).notNull(),
  rateLimitTimeWindow: real('rateLimitTimeWindow'),
  rateLimitMax: real('rateLimitMax'),
  requestCount: real('requestCount').notNull(),
  remaining: real('remaining'),
  lastRequest: isoDate('lastRequest'),
  expiresAt: isoDate('expiresAt'),
  createdAt: isoDate('createdAt').notNull(),
  updatedAt: isoDate('updatedAt').notNull(),
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

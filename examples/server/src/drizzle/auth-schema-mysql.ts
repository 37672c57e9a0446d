// Gatehouse's tables for Drizzle (mysql), written by `gatehouse generate --format drizzle --dialect mysql`.
// Generate it again after adding a plugin or an additional field, then run `drizzle-kit generate` (docs/adapters.md#using-drizzle).
import { relations } from 'drizzle-orm'
import { mysqlTable, double, bigint, boolean, datetime, index, uniqueIndex, foreignKey, customType } from 'drizzle-orm/mysql-core'

/** Text compared byte for byte (utf8mb4_bin), so 'Ada' and 'ada' differ as on the other databases. */
const binText = customType<{ data: string; driverData: string }>({
  dataType: () => 'text character set utf8mb4 collate utf8mb4_bin',
  toDriver: (value) => value,
  fromDriver: (value) => value,
})

/** The same for columns in a key or an index, which MySQL cannot build on TEXT. */
const binVarchar = customType<{ data: string; driverData: string }>({
  dataType: () => 'varchar(255) character set utf8mb4 collate utf8mb4_bin',
  toDriver: (value) => value,
  fromDriver: (value) => value,
})

/** JSON kept as text, as Gatehouse's own migrations store it. */
const jsonText = customType<{ data: unknown; driverData: string }>({
  dataType: () => 'longtext character set utf8mb4 collate utf8mb4_bin',
  toDriver: (value) => JSON.stringify(value),
  fromDriver: (value) => JSON.parse(value) as unknown,
})

/** The column type of Gatehouse's ids, for your columns that reference them: `ownerId: gatehouseId('owner_id').references(() => user.id)`. */
export const gatehouseId = (name: string) => binVarchar(name)

export const user = mysqlTable('user', {
  id: binVarchar('id').primaryKey(),
  name: binText('name').notNull(),
  email: binVarchar('email').notNull(),
  emailVerified: boolean('emailVerified').notNull(),
  image: binText('image'),
  createdAt: datetime('createdAt', { mode: 'date', fsp: 3 }).notNull(),
  updatedAt: datetime('updatedAt', { mode: 'date', fsp: 3 }).notNull(),
  credentialVersion: binText('credentialVersion'),
  role: binText('role'),
  banned: boolean('banned'),
  banReason: binText('banReason'),
  banExpires: datetime('banExpires', { mode: 'date', fsp: 3 }),
  twoFactorEnabled: boolean('twoFactorEnabled'),
  username: binVarchar('username'),
  displayUsername: binText('displayUsername'),
  phoneNumber: binVarchar('phoneNumber'),
  phoneNumberVerified: boolean('phoneNumberVerified'),
  lastLoginMethod: binText('lastLoginMethod'),
  isAnonymous: boolean('isAnonymous'),
}, (table) => [
  uniqueIndex('user_email_uniq').on(table.email),
  uniqueIndex('user_username_uniq').on(table.username),
  uniqueIndex('user_phoneNumber_uniq').on(table.phoneNumber),
])

export const session = mysqlTable('session', {
  id: binVarchar('id').primaryKey(),
  userId: binVarchar('userId').notNull(),
  token: binVarchar('token').notNull(),
  expiresAt: datetime('expiresAt', { mode: 'date', fsp: 3 }).notNull(),
  createdAt: datetime('createdAt', { mode: 'date', fsp: 3 }).notNull(),
  updatedAt: datetime('updatedAt', { mode: 'date', fsp: 3 }).notNull(),
  ipAddress: binText('ipAddress'),
  userAgent: binText('userAgent'),
  amr: binText('amr'),
  activeOrganizationId: binText('activeOrganizationId'),
  activeTeamId: binText('activeTeamId'),
  impersonatedBy: binVarchar('impersonatedBy'),
  twoFactorVerifiedAt: datetime('twoFactorVerifiedAt', { mode: 'date', fsp: 3 }),
  twoFactorMethod: binText('twoFactorMethod'),
  ssoProviderId: binVarchar('ssoProviderId'),
}, (table) => [
  index('session_userId_idx').on(table.userId),
  uniqueIndex('session_token_uniq').on(table.token),
  index('session_impersonatedBy_idx').on(table.impersonatedBy),
  index('session_ssoProviderId_idx').on(table.ssoProviderId),
  foreignKey({ name: 'session_userId_fk', columns: [table.userId], foreignColumns: [user.id] }).onDelete('cascade'),
])

export const account = mysqlTable('account', {
  id: binVarchar('id').primaryKey(),
  providerId: binVarchar('providerId').notNull(),
  accountId: binVarchar('accountId').notNull(),
  userId: binVarchar('userId').notNull(),
  accessToken: binText('accessToken'),
  refreshToken: binText('refreshToken'),
  idToken: binText('idToken'),
  accessTokenExpiresAt: datetime('accessTokenExpiresAt', { mode: 'date', fsp: 3 }),
  refreshTokenExpiresAt: datetime('refreshTokenExpiresAt', { mode: 'date', fsp: 3 }),
  scope: binText('scope'),
  password: binText('password'),
  createdAt: datetime('createdAt', { mode: 'date', fsp: 3 }).notNull(),
  updatedAt: datetime('updatedAt', { mode: 'date', fsp: 3 }).notNull(),
}, (table) => [
  index('account_userId_idx').on(table.userId),
  uniqueIndex('account_providerId_accountId_uniq').on(table.providerId, table.accountId),
  foreignKey({ name: 'account_userId_fk', columns: [table.userId], foreignColumns: [user.id] }).onDelete('cascade'),
])

export const verification = mysqlTable('verification', {
  id: binVarchar('id').primaryKey(),
  identifier: binVarchar('identifier').notNull(),
  value: binText('value').notNull(),
  expiresAt: datetime('expiresAt', { mode: 'date', fsp: 3 }).notNull(),
  createdAt: datetime('createdAt', { mode: 'date', fsp: 3 }).notNull(),
  updatedAt: datetime('updatedAt', { mode: 'date', fsp: 3 }).notNull(),
}, (table) => [
  index('verification_identifier_idx').on(table.identifier),
])

export const rateLimit = mysqlTable('rateLimit', {
  id: binVarchar('id').primaryKey(),
  key: binVarchar('key').notNull(),
  count: double('count').notNull(),
  lastRequest: bigint('lastRequest', { mode: 'number' }).notNull(),
}, (table) => [
  uniqueIndex('rateLimit_key_uniq').on(table.key),
])

export const organization = mysqlTable('organization', {
  id: binVarchar('id').primaryKey(),
  name: binText('name').notNull(),
  slug: binVarchar('slug').notNull(),
  logo: binText('logo'),
  metadata: jsonText('metadata'),
  createdAt: datetime('createdAt', { mode: 'date', fsp: 3 }).notNull(),
}, (table) => [
  uniqueIndex('organization_slug_uniq').on(table.slug),
])

export const member = mysqlTable('member', {
  id: binVarchar('id').primaryKey(),
  organizationId: binVarchar('organizationId').notNull(),
  userId: binVarchar('userId').notNull(),
  role: binText('role').notNull(),
  teamId: binText('teamId'),
  createdAt: datetime('createdAt', { mode: 'date', fsp: 3 }).notNull(),
  suspendedAt: datetime('suspendedAt', { mode: 'date', fsp: 3 }),
}, (table) => [
  index('member_organizationId_idx').on(table.organizationId),
  index('member_userId_idx').on(table.userId),
  uniqueIndex('member_organizationId_userId_uniq').on(table.organizationId, table.userId),
  foreignKey({ name: 'member_organizationId_fk', columns: [table.organizationId], foreignColumns: [organization.id] }).onDelete('cascade'),
  foreignKey({ name: 'member_userId_fk', columns: [table.userId], foreignColumns: [user.id] }).onDelete('cascade'),
])

export const invitation = mysqlTable('invitation', {
  id: binVarchar('id').primaryKey(),
  organizationId: binVarchar('organizationId').notNull(),
  email: binVarchar('email').notNull(),
  role: binText('role').notNull(),
  status: binText('status').notNull(),
  teamId: binText('teamId'),
  inviterId: binVarchar('inviterId').notNull(),
  expiresAt: datetime('expiresAt', { mode: 'date', fsp: 3 }).notNull(),
}, (table) => [
  index('invitation_organizationId_idx').on(table.organizationId),
  index('invitation_email_idx').on(table.email),
  foreignKey({ name: 'invitation_organizationId_fk', columns: [table.organizationId], foreignColumns: [organization.id] }).onDelete('cascade'),
  foreignKey({ name: 'invitation_inviterId_fk', columns: [table.inviterId], foreignColumns: [user.id] }).onDelete('cascade'),
])

export const team = mysqlTable('team', {
  id: binVarchar('id').primaryKey(),
  name: binText('name').notNull(),
  organizationId: binVarchar('organizationId').notNull(),
  createdAt: datetime('createdAt', { mode: 'date', fsp: 3 }).notNull(),
  updatedAt: datetime('updatedAt', { mode: 'date', fsp: 3 }),
}, (table) => [
  index('team_organizationId_idx').on(table.organizationId),
  foreignKey({ name: 'team_organizationId_fk', columns: [table.organizationId], foreignColumns: [organization.id] }).onDelete('cascade'),
])

export const teamMember = mysqlTable('teamMember', {
  id: binVarchar('id').primaryKey(),
  teamId: binVarchar('teamId').notNull(),
  userId: binVarchar('userId').notNull(),
  createdAt: datetime('createdAt', { mode: 'date', fsp: 3 }).notNull(),
}, (table) => [
  index('teamMember_teamId_idx').on(table.teamId),
  index('teamMember_userId_idx').on(table.userId),
  uniqueIndex('teamMember_teamId_userId_uniq').on(table.teamId, table.userId),
  foreignKey({ name: 'teamMember_teamId_fk', columns: [table.teamId], foreignColumns: [team.id] }).onDelete('cascade'),
  foreignKey({ name: 'teamMember_userId_fk', columns: [table.userId], foreignColumns: [user.id] }).onDelete('cascade'),
])

export const billingEvent = mysqlTable('billingEvent', {
  id: binVarchar('id').primaryKey(),
  webhookId: binVarchar('webhookId').notNull(),
  type: binText('type'),
  status: binVarchar('status').notNull(),
  error: binText('error'),
  issues: jsonText('issues'),
  payload: jsonText('payload').notNull(),
  timestamp: datetime('timestamp', { mode: 'date', fsp: 3 }),
  receivedAt: datetime('receivedAt', { mode: 'date', fsp: 3 }).notNull(),
  processedAt: datetime('processedAt', { mode: 'date', fsp: 3 }),
  attempts: double('attempts').notNull(),
}, (table) => [
  uniqueIndex('billingEvent_webhookId_uniq').on(table.webhookId),
  index('billingEvent_status_idx').on(table.status),
])

export const billingCustomer = mysqlTable('billingCustomer', {
  id: binVarchar('id').primaryKey(),
  externalId: binVarchar('externalId'),
  email: binVarchar('email'),
  emailVerified: boolean('emailVerified').notNull(),
  name: binText('name'),
  metadata: jsonText('metadata').notNull(),
  billingAddress: jsonText('billingAddress'),
  taxId: jsonText('taxId'),
  platformOrganizationId: binText('platformOrganizationId').notNull(),
  avatarUrl: binText('avatarUrl'),
  deletedAt: datetime('deletedAt', { mode: 'date', fsp: 3 }),
  stateVersion: bigint('stateVersion', { mode: 'number' }),
  createdAt: datetime('createdAt', { mode: 'date', fsp: 3 }).notNull(),
  modifiedAt: datetime('modifiedAt', { mode: 'date', fsp: 3 }),
  version: bigint('version', { mode: 'number' }).notNull(),
}, (table) => [
  index('billingCustomer_externalId_idx').on(table.externalId),
  index('billingCustomer_email_idx').on(table.email),
])

export const billingSubscription = mysqlTable('billingSubscription', {
  id: binVarchar('id').primaryKey(),
  customerId: binVarchar('customerId').notNull(),
  productId: binVarchar('productId').notNull(),
  status: binText('status').notNull(),
  active: boolean('active').notNull(),
  amount: double('amount').notNull(),
  currency: binText('currency').notNull(),
  recurringInterval: binText('recurringInterval').notNull(),
  currentPeriodStart: datetime('currentPeriodStart', { mode: 'date', fsp: 3 }).notNull(),
  currentPeriodEnd: datetime('currentPeriodEnd', { mode: 'date', fsp: 3 }),
  cancelAtPeriodEnd: boolean('cancelAtPeriodEnd').notNull(),
  canceledAt: datetime('canceledAt', { mode: 'date', fsp: 3 }),
  startedAt: datetime('startedAt', { mode: 'date', fsp: 3 }),
  endsAt: datetime('endsAt', { mode: 'date', fsp: 3 }),
  endedAt: datetime('endedAt', { mode: 'date', fsp: 3 }),
  discountId: binText('discountId'),
  checkoutId: binText('checkoutId'),
  customerCancellationReason: binText('customerCancellationReason'),
  customerCancellationComment: binText('customerCancellationComment'),
  metadata: jsonText('metadata').notNull(),
  customFieldData: jsonText('customFieldData'),
  meters: jsonText('meters').notNull(),
  createdAt: datetime('createdAt', { mode: 'date', fsp: 3 }).notNull(),
  modifiedAt: datetime('modifiedAt', { mode: 'date', fsp: 3 }),
  version: bigint('version', { mode: 'number' }).notNull(),
}, (table) => [
  index('billingSubscription_customerId_idx').on(table.customerId),
  index('billingSubscription_productId_idx').on(table.productId),
])

export const billingOrder = mysqlTable('billingOrder', {
  id: binVarchar('id').primaryKey(),
  customerId: binVarchar('customerId').notNull(),
  productId: binText('productId'),
  subscriptionId: binVarchar('subscriptionId'),
  status: binText('status').notNull(),
  paid: boolean('paid').notNull(),
  billingReason: binText('billingReason').notNull(),
  subtotalAmount: double('subtotalAmount').notNull(),
  discountAmount: double('discountAmount').notNull(),
  netAmount: double('netAmount').notNull(),
  taxAmount: double('taxAmount').notNull(),
  totalAmount: double('totalAmount').notNull(),
  refundedAmount: double('refundedAmount').notNull(),
  refundedTaxAmount: double('refundedTaxAmount').notNull(),
  currency: binText('currency').notNull(),
  discountId: binText('discountId'),
  checkoutId: binText('checkoutId'),
  items: jsonText('items').notNull(),
  metadata: jsonText('metadata').notNull(),
  createdAt: datetime('createdAt', { mode: 'date', fsp: 3 }).notNull(),
  modifiedAt: datetime('modifiedAt', { mode: 'date', fsp: 3 }),
  version: bigint('version', { mode: 'number' }).notNull(),
}, (table) => [
  index('billingOrder_customerId_idx').on(table.customerId),
  index('billingOrder_subscriptionId_idx').on(table.subscriptionId),
])

export const billingBenefitGrant = mysqlTable('billingBenefitGrant', {
  id: binVarchar('id').primaryKey(),
  customerId: binVarchar('customerId').notNull(),
  benefitId: binVarchar('benefitId').notNull(),
  benefitType: binText('benefitType').notNull(),
  benefitMetadata: jsonText('benefitMetadata').notNull(),
  subscriptionId: binText('subscriptionId'),
  orderId: binText('orderId'),
  isGranted: boolean('isGranted').notNull(),
  isRevoked: boolean('isRevoked').notNull(),
  grantedAt: datetime('grantedAt', { mode: 'date', fsp: 3 }),
  revokedAt: datetime('revokedAt', { mode: 'date', fsp: 3 }),
  properties: jsonText('properties').notNull(),
  error: jsonText('error'),
  createdAt: datetime('createdAt', { mode: 'date', fsp: 3 }).notNull(),
  modifiedAt: datetime('modifiedAt', { mode: 'date', fsp: 3 }),
  version: bigint('version', { mode: 'number' }).notNull(),
}, (table) => [
  index('billingBenefitGrant_customerId_idx').on(table.customerId),
  index('billingBenefitGrant_benefitId_idx').on(table.benefitId),
])

export const billingCustomerMeter = mysqlTable('billingCustomerMeter', {
  id: binVarchar('id').primaryKey(),
  customerId: binVarchar('customerId').notNull(),
  meterId: binText('meterId').notNull(),
  consumedUnits: double('consumedUnits').notNull(),
  creditedUnits: double('creditedUnits').notNull(),
  balance: double('balance').notNull(),
  active: boolean('active').notNull(),
  createdAt: datetime('createdAt', { mode: 'date', fsp: 3 }).notNull(),
  modifiedAt: datetime('modifiedAt', { mode: 'date', fsp: 3 }),
  version: bigint('version', { mode: 'number' }).notNull(),
}, (table) => [
  index('billingCustomerMeter_customerId_idx').on(table.customerId),
])

export const billingCustomerSync = mysqlTable('billingCustomerSync', {
  id: binVarchar('id').primaryKey(),
  referenceId: binVarchar('referenceId').notNull(),
  action: binText('action').notNull(),
  status: binVarchar('status').notNull(),
  revision: double('revision').notNull(),
  attempts: double('attempts').notNull(),
  nextAttemptAt: datetime('nextAttemptAt', { mode: 'date', fsp: 3 }).notNull(),
  claimedUntil: datetime('claimedUntil', { mode: 'date', fsp: 3 }),
  lastError: binText('lastError'),
  email: binText('email'),
  name: binText('name'),
  createdAt: datetime('createdAt', { mode: 'date', fsp: 3 }).notNull(),
  updatedAt: datetime('updatedAt', { mode: 'date', fsp: 3 }).notNull(),
}, (table) => [
  uniqueIndex('billingCustomerSync_referenceId_uniq').on(table.referenceId),
  index('billingCustomerSync_status_idx').on(table.status),
  index('billingCustomerSync_nextAttemptAt_idx').on(table.nextAttemptAt),
])

export const oauthApplication = mysqlTable('oauthApplication', {
  id: binVarchar('id').primaryKey(),
  name: binText('name').notNull(),
  icon: binText('icon'),
  metadata: jsonText('metadata'),
  clientId: binVarchar('clientId').notNull(),
  clientSecret: binText('clientSecret'),
  redirectURLs: binText('redirectURLs').notNull(),
  postLogoutRedirectURLs: binText('postLogoutRedirectURLs'),
  type: binText('type').notNull(),
  tokenEndpointAuthMethod: binText('tokenEndpointAuthMethod').notNull(),
  grantTypes: binText('grantTypes').notNull(),
  responseTypes: binText('responseTypes').notNull(),
  scope: binText('scope'),
  skipConsent: boolean('skipConsent').notNull(),
  disabled: boolean('disabled').notNull(),
  verified: boolean('verified').notNull(),
  userId: binVarchar('userId'),
  createdAt: datetime('createdAt', { mode: 'date', fsp: 3 }).notNull(),
  updatedAt: datetime('updatedAt', { mode: 'date', fsp: 3 }).notNull(),
}, (table) => [
  uniqueIndex('oauthApplication_clientId_uniq').on(table.clientId),
  index('oauthApplication_userId_idx').on(table.userId),
  foreignKey({ name: 'oauthApplication_userId_fk', columns: [table.userId], foreignColumns: [user.id] }).onDelete('cascade'),
])

export const oauthAccessToken = mysqlTable('oauthAccessToken', {
  id: binVarchar('id').primaryKey(),
  accessToken: binVarchar('accessToken').notNull(),
  refreshToken: binVarchar('refreshToken'),
  accessTokenExpiresAt: datetime('accessTokenExpiresAt', { mode: 'date', fsp: 3 }).notNull(),
  refreshTokenExpiresAt: datetime('refreshTokenExpiresAt', { mode: 'date', fsp: 3 }),
  clientId: binVarchar('clientId').notNull(),
  userId: binVarchar('userId').notNull(),
  scopes: binText('scopes').notNull(),
  grantId: binVarchar('grantId').notNull(),
  rotatedAt: datetime('rotatedAt', { mode: 'date', fsp: 3 }),
  authTime: datetime('authTime', { mode: 'date', fsp: 3 }),
  grantedAt: datetime('grantedAt', { mode: 'date', fsp: 3 }),
  amr: binText('amr'),
  acr: binText('acr'),
  createdAt: datetime('createdAt', { mode: 'date', fsp: 3 }).notNull(),
  updatedAt: datetime('updatedAt', { mode: 'date', fsp: 3 }).notNull(),
}, (table) => [
  uniqueIndex('oauthAccessToken_accessToken_uniq').on(table.accessToken),
  uniqueIndex('oauthAccessToken_refreshToken_uniq').on(table.refreshToken),
  index('oauthAccessToken_clientId_idx').on(table.clientId),
  index('oauthAccessToken_userId_idx').on(table.userId),
  index('oauthAccessToken_grantId_idx').on(table.grantId),
  foreignKey({ name: 'oauthAccessToken_userId_fk', columns: [table.userId], foreignColumns: [user.id] }).onDelete('cascade'),
])

export const oauthConsent = mysqlTable('oauthConsent', {
  id: binVarchar('id').primaryKey(),
  clientId: binVarchar('clientId').notNull(),
  userId: binVarchar('userId').notNull(),
  scopes: binText('scopes').notNull(),
  consentGiven: boolean('consentGiven').notNull(),
  revokedAt: datetime('revokedAt', { mode: 'date', fsp: 3 }),
  createdAt: datetime('createdAt', { mode: 'date', fsp: 3 }).notNull(),
  updatedAt: datetime('updatedAt', { mode: 'date', fsp: 3 }).notNull(),
}, (table) => [
  index('oauthConsent_clientId_idx').on(table.clientId),
  index('oauthConsent_userId_idx').on(table.userId),
  uniqueIndex('oauthConsent_clientId_userId_uniq').on(table.clientId, table.userId),
  foreignKey({ name: 'oauthConsent_userId_fk', columns: [table.userId], foreignColumns: [user.id] }).onDelete('cascade'),
])

export const jwks = mysqlTable('jwks', {
  id: binVarchar('id').primaryKey(),
  publicKey: binText('publicKey').notNull(),
  privateKey: binText('privateKey').notNull(),
  alg: binVarchar('alg').notNull(),
  supersedes: binVarchar('supersedes').notNull(),
  createdAt: datetime('createdAt', { mode: 'date', fsp: 3 }).notNull(),
  activatesAt: datetime('activatesAt', { mode: 'date', fsp: 3 }).notNull(),
  expiresAt: datetime('expiresAt', { mode: 'date', fsp: 3 }).notNull(),
}, (table) => [
  index('jwks_alg_idx').on(table.alg),
  uniqueIndex('jwks_supersedes_uniq').on(table.supersedes),
])

export const twoFactor = mysqlTable('twoFactor', {
  id: binVarchar('id').primaryKey(),
  userId: binVarchar('userId').notNull(),
  secret: binText('secret').notNull(),
  lastUsedStep: double('lastUsedStep'),
  failedAttempts: double('failedAttempts').notNull(),
  lockedUntil: datetime('lockedUntil', { mode: 'date', fsp: 3 }),
  lockouts: double('lockouts').notNull(),
  backupFailedAttempts: double('backupFailedAttempts').notNull(),
  backupLockedUntil: datetime('backupLockedUntil', { mode: 'date', fsp: 3 }),
  backupLockouts: double('backupLockouts').notNull(),
  trustVersion: binText('trustVersion').notNull(),
  otpEnabled: boolean('otpEnabled').notNull(),
  createdAt: datetime('createdAt', { mode: 'date', fsp: 3 }).notNull(),
  updatedAt: datetime('updatedAt', { mode: 'date', fsp: 3 }).notNull(),
}, (table) => [
  uniqueIndex('twoFactor_userId_uniq').on(table.userId),
  foreignKey({ name: 'twoFactor_userId_fk', columns: [table.userId], foreignColumns: [user.id] }).onDelete('cascade'),
])

export const twoFactorBackupCode = mysqlTable('twoFactorBackupCode', {
  id: binVarchar('id').primaryKey(),
  userId: binVarchar('userId').notNull(),
  codeHash: binVarchar('codeHash').notNull(),
  createdAt: datetime('createdAt', { mode: 'date', fsp: 3 }).notNull(),
}, (table) => [
  index('twoFactorBackupCode_userId_idx').on(table.userId),
  uniqueIndex('twoFactorBackupCode_codeHash_uniq').on(table.codeHash),
  foreignKey({ name: 'twoFactorBackupCode_userId_fk', columns: [table.userId], foreignColumns: [user.id] }).onDelete('cascade'),
])

export const passkey = mysqlTable('passkey', {
  id: binVarchar('id').primaryKey(),
  userId: binVarchar('userId').notNull(),
  name: binText('name'),
  credentialID: binText('credentialID').notNull(),
  credentialIDHash: binVarchar('credentialIDHash').notNull(),
  publicKey: binText('publicKey').notNull(),
  counter: bigint('counter', { mode: 'number' }).notNull(),
  deviceType: binText('deviceType').notNull(),
  backedUp: boolean('backedUp').notNull(),
  transports: binText('transports'),
  aaguid: binText('aaguid'),
  userHandle: binText('userHandle').notNull(),
  createdAt: datetime('createdAt', { mode: 'date', fsp: 3 }).notNull(),
}, (table) => [
  index('passkey_userId_idx').on(table.userId),
  uniqueIndex('passkey_credentialIDHash_uniq').on(table.credentialIDHash),
  foreignKey({ name: 'passkey_userId_fk', columns: [table.userId], foreignColumns: [user.id] }).onDelete('cascade'),
])

export const ssoProvider = mysqlTable('ssoProvider', {
  id: binVarchar('id').primaryKey(),
  providerId: binVarchar('providerId').notNull(),
  issuer: binText('issuer').notNull(),
  domain: binVarchar('domain').notNull(),
  domainVerified: boolean('domainVerified').notNull(),
  verifiedDomain: binVarchar('verifiedDomain'),
  oidcConfig: binText('oidcConfig'),
  samlConfig: binText('samlConfig'),
  twoFactor: binText('twoFactor').notNull(),
  userId: binVarchar('userId'),
  organizationId: binVarchar('organizationId').notNull(),
  createdAt: datetime('createdAt', { mode: 'date', fsp: 3 }).notNull(),
  updatedAt: datetime('updatedAt', { mode: 'date', fsp: 3 }).notNull(),
}, (table) => [
  uniqueIndex('ssoProvider_providerId_uniq').on(table.providerId),
  index('ssoProvider_domain_idx').on(table.domain),
  uniqueIndex('ssoProvider_verifiedDomain_uniq').on(table.verifiedDomain),
  index('ssoProvider_userId_idx').on(table.userId),
  index('ssoProvider_organizationId_idx').on(table.organizationId),
  foreignKey({ name: 'ssoProvider_userId_fk', columns: [table.userId], foreignColumns: [user.id] }).onDelete('set null'),
  foreignKey({ name: 'ssoProvider_organizationId_fk', columns: [table.organizationId], foreignColumns: [organization.id] }).onDelete('cascade'),
])

export const scimToken = mysqlTable('scimToken', {
  id: binVarchar('id').primaryKey(),
  organizationId: binVarchar('organizationId').notNull(),
  providerId: binVarchar('providerId').notNull(),
  tokenHash: binVarchar('tokenHash').notNull(),
  start: binText('start').notNull(),
  createdBy: binVarchar('createdBy'),
  expiresAt: datetime('expiresAt', { mode: 'date', fsp: 3 }),
  lastUsedAt: datetime('lastUsedAt', { mode: 'date', fsp: 3 }),
  createdAt: datetime('createdAt', { mode: 'date', fsp: 3 }).notNull(),
}, (table) => [
  index('scimToken_organizationId_idx').on(table.organizationId),
  uniqueIndex('scimToken_tokenHash_uniq').on(table.tokenHash),
  index('scimToken_createdBy_idx').on(table.createdBy),
  uniqueIndex('scimToken_organizationId_providerId_uniq').on(table.organizationId, table.providerId),
  foreignKey({ name: 'scimToken_organizationId_fk', columns: [table.organizationId], foreignColumns: [organization.id] }).onDelete('cascade'),
  foreignKey({ name: 'scimToken_createdBy_fk', columns: [table.createdBy], foreignColumns: [user.id] }).onDelete('set null'),
])

export const scimUser = mysqlTable('scimUser', {
  id: binVarchar('id').primaryKey(),
  organizationId: binVarchar('organizationId').notNull(),
  userId: binVarchar('userId').notNull(),
  userName: binText('userName').notNull(),
  userNameKey: binVarchar('userNameKey').notNull(),
  externalId: binVarchar('externalId'),
  attributes: jsonText('attributes'),
  createdUser: boolean('createdUser').notNull(),
  createdAt: datetime('createdAt', { mode: 'date', fsp: 3 }).notNull(),
  updatedAt: datetime('updatedAt', { mode: 'date', fsp: 3 }).notNull(),
}, (table) => [
  index('scimUser_organizationId_idx').on(table.organizationId),
  index('scimUser_userId_idx').on(table.userId),
  uniqueIndex('scimUser_organizationId_userId_uniq').on(table.organizationId, table.userId),
  uniqueIndex('scimUser_organizationId_userNameKey_uniq').on(table.organizationId, table.userNameKey),
  uniqueIndex('scimUser_organizationId_externalId_uniq').on(table.organizationId, table.externalId),
  foreignKey({ name: 'scimUser_organizationId_fk', columns: [table.organizationId], foreignColumns: [organization.id] }).onDelete('cascade'),
  foreignKey({ name: 'scimUser_userId_fk', columns: [table.userId], foreignColumns: [user.id] }).onDelete('cascade'),
])

export const scimGroup = mysqlTable('scimGroup', {
  id: binVarchar('id').primaryKey(),
  organizationId: binVarchar('organizationId').notNull(),
  teamId: binVarchar('teamId').notNull(),
  externalId: binVarchar('externalId'),
  createdAt: datetime('createdAt', { mode: 'date', fsp: 3 }).notNull(),
  updatedAt: datetime('updatedAt', { mode: 'date', fsp: 3 }).notNull(),
}, (table) => [
  index('scimGroup_organizationId_idx').on(table.organizationId),
  uniqueIndex('scimGroup_teamId_uniq').on(table.teamId),
  uniqueIndex('scimGroup_organizationId_externalId_uniq').on(table.organizationId, table.externalId),
  foreignKey({ name: 'scimGroup_organizationId_fk', columns: [table.organizationId], foreignColumns: [organization.id] }).onDelete('cascade'),
  foreignKey({ name: 'scimGroup_teamId_fk', columns: [table.teamId], foreignColumns: [team.id] }).onDelete('cascade'),
])

export const apikey = mysqlTable('apikey', {
  id: binVarchar('id').primaryKey(),
  configId: binText('configId'),
  name: binText('name'),
  start: binText('start'),
  prefix: binText('prefix'),
  key: binVarchar('key').notNull(),
  referenceId: binVarchar('referenceId').notNull(),
  referenceType: binText('referenceType'),
  refillInterval: double('refillInterval'),
  refillAmount: double('refillAmount'),
  lastRefillAt: datetime('lastRefillAt', { mode: 'date', fsp: 3 }),
  enabled: boolean('enabled').notNull(),
  rateLimitEnabled: boolean('rateLimitEnabled').notNull(),
  rateLimitTimeWindow: double('rateLimitTimeWindow'),
  rateLimitMax: double('rateLimitMax'),
  requestCount: double('requestCount').notNull(),
  remaining: double('remaining'),
  lastRequest: datetime('lastRequest', { mode: 'date', fsp: 3 }),
  expiresAt: datetime('expiresAt', { mode: 'date', fsp: 3 }),
  createdAt: datetime('createdAt', { mode: 'date', fsp: 3 }).notNull(),
  updatedAt: datetime('updatedAt', { mode: 'date', fsp: 3 }).notNull(),
  permissions: binText('permissions'),
  metadata: binText('metadata'),
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

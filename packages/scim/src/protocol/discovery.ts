/**
 * @module
 * The discovery documents (RFC 7644 §4): ServiceProviderConfig, the
 * ResourceTypes and the Schemas (RFC 7643 §5-§7), built from a short
 * description of each attribute. They say what this service does, so a
 * directory's connector does not try the rest: PATCH yes; filtering yes (at
 * most `MAX_RESULTS` per page); ETags yes; bulk, sorting and password
 * changes no; one authentication scheme, the organization's bearer token.
 * Groups are listed only when the plugin serves them (`groups` option).
 */
import {
  ENTERPRISE_USER_SCHEMA,
  GROUP_SCHEMA,
  MAX_RESULTS,
  RESOURCE_TYPE_SCHEMA,
  SCHEMA_SCHEMA,
  SCIM_BASE_PATH,
  SERVICE_PROVIDER_CONFIG_SCHEMA,
  USER_SCHEMA,
} from './constants.js'

type Mutability = 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly'

interface AttributeOptions {
  readonly type?: 'string' | 'boolean' | 'complex' | 'reference' | 'dateTime'
  readonly multiValued?: boolean
  readonly required?: boolean
  readonly caseExact?: boolean
  readonly mutability?: Mutability
  readonly returned?: 'always' | 'never' | 'default' | 'request'
  readonly uniqueness?: 'none' | 'server' | 'global'
  readonly description?: string
  readonly subAttributes?: readonly Record<string, unknown>[]
  readonly referenceTypes?: readonly string[]
}

function attribute(name: string, options: AttributeOptions = {}): Record<string, unknown> {
  const type = options.type ?? 'string'
  return {
    name,
    type,
    multiValued: options.multiValued ?? false,
    description: options.description ?? '',
    required: options.required ?? false,
    ...(type === 'string' || type === 'reference' ? { caseExact: options.caseExact ?? false } : {}),
    ...(options.subAttributes ? { subAttributes: options.subAttributes } : {}),
    ...(options.referenceTypes ? { referenceTypes: options.referenceTypes } : {}),
    mutability: options.mutability ?? 'readWrite',
    returned: options.returned ?? 'default',
    uniqueness: options.uniqueness ?? 'none',
  }
}

function multiValued(name: string, description: string): Record<string, unknown> {
  return attribute(name, {
    type: 'complex',
    multiValued: true,
    description,
    subAttributes: [attribute('value'), attribute('display'), attribute('type'), attribute('primary', { type: 'boolean' })],
  })
}

const userAttributes = [
  attribute('userName', { required: true, uniqueness: 'server', description: "The user's sign-in name; an email address maps to the Gatehouse user's email." }),
  attribute('name', {
    type: 'complex',
    subAttributes: ['formatted', 'familyName', 'givenName', 'middleName', 'honorificPrefix', 'honorificSuffix'].map((name) => attribute(name)),
  }),
  ...['displayName', 'nickName', 'profileUrl', 'title', 'userType', 'preferredLanguage', 'locale', 'timezone'].map((name) => attribute(name)),
  attribute('active', { type: 'boolean', description: 'false suspends the membership: sessions end and the organization refuses the user.' }),
  attribute('password', { mutability: 'writeOnly', returned: 'never', description: 'Not accepted: passwords are not set through SCIM.' }),
  multiValued('emails', 'The primary (else first) value is the Gatehouse user email when userName is not an address.'),
  multiValued('phoneNumbers', ''),
  multiValued('ims', ''),
  multiValued('photos', ''),
  attribute('addresses', {
    type: 'complex',
    multiValued: true,
    subAttributes: [...['formatted', 'streetAddress', 'locality', 'region', 'postalCode', 'country', 'type'].map((name) => attribute(name)), attribute('primary', { type: 'boolean' })],
  }),
  attribute('groups', {
    type: 'complex',
    multiValued: true,
    mutability: 'readOnly',
    description: "The organization's teams the user belongs to.",
    subAttributes: [attribute('value', { mutability: 'readOnly', caseExact: true }), attribute('$ref', { type: 'reference', mutability: 'readOnly', referenceTypes: ['Group'] }), attribute('display', { mutability: 'readOnly' }), attribute('type', { mutability: 'readOnly' })],
  }),
  multiValued('entitlements', ''),
  multiValued('roles', ''),
  multiValued('x509Certificates', ''),
]

const enterpriseAttributes = [
  ...['employeeNumber', 'costCenter', 'organization', 'division', 'department'].map((name) => attribute(name)),
  attribute('manager', {
    type: 'complex',
    subAttributes: [attribute('value', { caseExact: true }), attribute('$ref', { type: 'reference', referenceTypes: ['User'] }), attribute('displayName', { mutability: 'readOnly' })],
  }),
]

const groupAttributes = [
  attribute('displayName', { required: true, description: 'The team name.' }),
  attribute('members', {
    type: 'complex',
    multiValued: true,
    description: 'Members of the organization in the team.',
    subAttributes: [attribute('value', { mutability: 'immutable', caseExact: true }), attribute('$ref', { type: 'reference', mutability: 'immutable', referenceTypes: ['User'] }), attribute('display', { mutability: 'readOnly' }), attribute('type', { mutability: 'immutable' })],
  }),
]

function schemaDocument(baseURL: string, id: string, name: string, description: string, attributes: readonly Record<string, unknown>[]) {
  return { schemas: [SCHEMA_SCHEMA], id, name, description, attributes, meta: { resourceType: 'Schema', location: `${baseURL}${SCIM_BASE_PATH}/Schemas/${id}` } }
}

/** The Schema resources served (RFC 7643 §7), Group's only with groups on. */
export function schemaDocuments(baseURL: string, groups: boolean) {
  return [
    schemaDocument(baseURL, USER_SCHEMA, 'User', 'A member of the organization', userAttributes),
    schemaDocument(baseURL, ENTERPRISE_USER_SCHEMA, 'EnterpriseUser', 'Enterprise User', enterpriseAttributes),
    ...(groups ? [schemaDocument(baseURL, GROUP_SCHEMA, 'Group', 'A team of the organization', groupAttributes)] : []),
  ]
}

/** The ResourceType resources (RFC 7643 §6). */
export function resourceTypeDocuments(baseURL: string, groups: boolean) {
  const user = {
    schemas: [RESOURCE_TYPE_SCHEMA],
    id: 'User',
    name: 'User',
    endpoint: '/Users',
    description: 'A member of the organization',
    schema: USER_SCHEMA,
    schemaExtensions: [{ schema: ENTERPRISE_USER_SCHEMA, required: false }],
    meta: { resourceType: 'ResourceType', location: `${baseURL}${SCIM_BASE_PATH}/ResourceTypes/User` },
  }
  const group = {
    schemas: [RESOURCE_TYPE_SCHEMA],
    id: 'Group',
    name: 'Group',
    endpoint: '/Groups',
    description: 'A team of the organization',
    schema: GROUP_SCHEMA,
    schemaExtensions: [],
    meta: { resourceType: 'ResourceType', location: `${baseURL}${SCIM_BASE_PATH}/ResourceTypes/Group` },
  }
  return groups ? [user, group] : [user]
}

/**
 * @example
 * serviceProviderConfig('https://app.example.com/api/auth', 'https://app.example.com/docs/scim').patch // { supported: true }
 */
export function serviceProviderConfig(baseURL: string, documentationUri: string | undefined) {
  return {
    schemas: [SERVICE_PROVIDER_CONFIG_SCHEMA],
    ...(documentationUri ? { documentationUri } : {}),
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_RESULTS },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: true },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'OAuth Bearer Token',
        description: "A SCIM token of the organization, generated by one of its owners or admins, in the Authorization header.",
        specUri: 'https://www.rfc-editor.org/info/rfc6750',
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${baseURL}${SCIM_BASE_PATH}/ServiceProviderConfig` },
  }
}

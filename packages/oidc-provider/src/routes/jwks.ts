/**
 * @module
 * GET /jwks: core's shared key set (docs/plugins.md#signing-keys-shared-by-plugins),
 * listed by this plugin so relying parties find the ID Token keys at the
 * `jwks_uri` of discovery. The same endpoint object every signing plugin
 * lists: with the jwt plugin on too, one route publishes both plugins' keys.
 */
export { getJwks, JWKS_MAX_AGE } from '@gatehouse/core'

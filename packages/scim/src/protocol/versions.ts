/**
 * @module
 * Resource versions (RFC 7644 §3.14): `meta.version` and the `ETag` header
 * are a weak entity tag over the resource as rendered (its attributes, not
 * its `meta`), so any change a directory could see changes it, whoever made
 * the change (a SCIM write, an admin in the app, the user). A write with
 * `If-Match` proceeds only while the resource is still at one of the named
 * versions (`*`: any), else 412: two directory jobs cannot silently
 * overwrite each other's change.
 */
import { sha256Base64url } from '@gatehouse/core'
import { ScimError, ScimErrors } from '../errors.js'

/**
 * @example
 * versionOf({ userName: 'ada' }) // 'W/"3q2+7w…"'
 */
export function versionOf(attributes: Record<string, unknown>): string {
  return `W/"${sha256Base64url(JSON.stringify(attributes)).slice(0, 27)}"`
}

/** Throws 412 unless `If-Match` is absent, `*`, or names `current` (weak comparison: RFC 9110 §8.8.3.2). */
export function checkIfMatch(headers: Headers, current: string): void {
  const header = headers.get('if-match')
  if (header === null || header.trim() === '*') return
  const bare = (tag: string) => tag.trim().replace(/^W\//, '')
  if (header.split(',').some((tag) => bare(tag) === bare(current))) return
  throw new ScimError(ScimErrors.PRECONDITION_FAILED)
}

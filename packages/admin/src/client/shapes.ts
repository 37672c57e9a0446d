/**
 * @module
 * What the admin routes answer (docs/admin.md#routes), as zod/mini schemas
 * the client checks responses against. Known fields are checked and Dates
 * revived; other fields pass through. Written here, not imported from the
 * server code, so a browser bundle holds only these few schemas.
 */
import * as z from 'zod/mini'

/** A Date as JSON carries it (ISO 8601 with an offset), revived. */
export const isoDate = z.pipe(
  z.iso.datetime({ offset: true }),
  z.transform((text: string) => new Date(text)),
)

export const adminUserShape = z.looseObject({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  image: z.nullable(z.string()),
  role: z.nullable(z.string()),
  banned: z.nullable(z.boolean()),
  banReason: z.nullable(z.string()),
  banExpires: z.nullable(isoDate),
  createdAt: isoDate,
  updatedAt: isoDate,
})

export const adminSessionShape = z.looseObject({
  id: z.string(),
  userId: z.string(),
  token: z.string(),
  expiresAt: isoDate,
  createdAt: isoDate,
  updatedAt: isoDate,
  ipAddress: z.nullable(z.string()),
  userAgent: z.nullable(z.string()),
  impersonatedBy: z.optional(z.nullable(z.string())),
})

export const userReplyShape = z.looseObject({ user: adminUserShape })

export const sessionReplyShape = z.looseObject({ session: adminSessionShape, user: adminUserShape })

/**
 * @module
 * What the admin routes answer (docs/admin.md#routes), as zod/mini schemas
 * the client checks responses against. Known fields are checked and Dates
 * revived; other fields pass through. Written here, not imported from the
 * server code, so a browser bundle holds only these few schemas.
 */
import { isoDate, userShape } from '@gatehouse/react/client'
import * as z from 'zod/mini'

export const adminUserShape = z.extend(userShape, {
  role: z.nullable(z.string()),
  banned: z.nullable(z.boolean()),
  banReason: z.nullable(z.string()),
  banExpires: z.nullable(isoDate),
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

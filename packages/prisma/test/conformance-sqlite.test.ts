/** The adapter conformance suite on the Prisma adapter over better-sqlite3 (@prisma/adapter-better-sqlite3). */
import { prismaConformance } from './conformance.js'

prismaConformance('sqlite')

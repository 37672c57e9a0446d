/** The adapter conformance suite on the Prisma adapter over node-postgres (@prisma/adapter-pg). */
import { prismaConformance } from './conformance.js'

prismaConformance('postgres')

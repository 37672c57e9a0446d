/** The adapter conformance suite on the Prisma adapter over MariaDB (@prisma/adapter-mariadb). */
import { prismaConformance } from './conformance.js'

prismaConformance('mysql')

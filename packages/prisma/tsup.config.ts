import { defineConfig } from 'tsup'
import { packageBuild } from '../../tsup.package.js'

export default defineConfig(packageBuild({ index: 'src/index.ts' }, ['@gatehouse/core', '@prisma/client']))

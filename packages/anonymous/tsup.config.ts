import { defineConfig } from 'tsup'
import { packageBuild } from '../../tsup.package.js'

export default defineConfig(packageBuild({ index: 'src/index.ts', client: 'src/client.ts' }, ['@gatehouse/core', '@gatehouse/react']))

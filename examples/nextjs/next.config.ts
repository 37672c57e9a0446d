import type { NextConfig } from 'next'

const config: NextConfig = {
  // Native and driver modules stay plain Node requires, never bundled: better-sqlite3 loads a compiled
  // binding from its own folder, pg loads optional modules at run time.
  serverExternalPackages: ['better-sqlite3', 'pg'],
}

export default config

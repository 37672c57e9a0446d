#!/usr/bin/env node
// The `gatehouse` command. The CLI itself is built into dist/; this file exists
// before any build, so a workspace install can link the command without warnings.
await import('../dist/cli/index.js')

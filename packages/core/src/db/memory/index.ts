export { memoryAdapter } from './memory-adapter.js'
export type { MemoryAdapterOptions } from './memory-adapter.js'

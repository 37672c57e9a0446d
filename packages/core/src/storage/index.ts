/**
 * @module
 * Secondary storage: the contract and the in-memory store. The Redis store
 * lives at `@gatehouse/core/storage/redis` so that core does not load ioredis.
 */
export { memoryStorage } from './memory-storage.js'
export type { MemoryStorage, MemoryStorageOptions } from './memory-storage.js'
export type { SecondaryStorage } from './types.js'

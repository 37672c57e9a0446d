/**
 * @module
 * Rate limiting: rules per path, three counter stores, and the limiter that
 * the HTTP layer consults before each endpoint.
 */
export { createRateLimiter, createRateLimitStore } from './rate-limiter.js'
export type { RateLimiter, RateLimiterConfig, RateLimitResult } from './rate-limiter.js'
export { builtInRules, credentialPaths, DEFAULT_MAX_REQUESTS, DEFAULT_WINDOW_SECONDS, failsClosed, longestWindow, matchesPattern, resolveRule } from './rules.js'
export type { PluginRateLimitRule, RateLimitOptions, RateLimitRule, RateLimitStorageKind } from './rules.js'
export { databaseRateLimitStore } from './storage-database.js'
export { memoryRateLimitStore } from './storage-memory.js'
export { secondaryRateLimitStore } from './storage-secondary.js'
export type { RateLimitDecision, RateLimitStore } from './store.js'

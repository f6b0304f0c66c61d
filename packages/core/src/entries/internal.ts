// @tandem/core/internal: helpers for Tandem's own packages (@tandem/realtime, @tandem/react).
// Not a public API: no semver promise; names may change in any release.
export { MAX_TIMER_MS, clampDelay, fullJitter, parseRetryAfter, sleep } from '../backoff.js'
export { redact } from '../redact.js'
export { createEmitter } from '../events.js'
export type { SafeEmitter } from '../events.js'
export { hashQuery } from '../cache/key.js'
export { replaceEqualDeep } from '../cache/structural-sharing.js'
export { createPool } from '../pool.js'
export type { Pool } from '../pool.js'
export { LEASE_RELEASE_MS, TOKEN_DEFAULTS } from '../defaults.js'
export { parseBaseUrl } from '../url-rules.js'
export { isTokenRefusal } from '../token-endpoint.js'
export { h, sheet, SR_ONLY } from '../dom.js'

// @tandem/core/client: the modular client. Add the services you call (`@tandem/core/maps`,
// `/support`, `/realtime-rest`), collections (`collection`, here) and the cache (`/cache`);
// nothing else is bundled.
export { createBaseClient, createClient } from '../base-client.js'
export type { CacheSlot, Client, ClientOptions, ServiceClient } from '../base-client.js'
export { collection } from '../collection.js'
export { logTo } from '../logger.js'
export type { LogTo } from '../logger.js'
export type { PathOf, TypedCollection } from '../collection.js'
export type { RequestClient } from '../client-request.js'
export { createTokenProvider, isTokenProvider } from '../token-provider.js'
export { watchRateLimit } from '../rate-limit-store.js'
export type { RateLimitSnapshot, RateLimitStore } from '../rate-limit-store.js'
export type { AuthOptions, FetchToken, TokenInfo, TokenProvider, TokenResponse } from '../token-provider.js'
export {
  AbortError,
  ApiError,
  AuthError,
  FileError,
  NetworkError,
  RateLimitError,
  RealtimeError,
  TandemError,
  TimeoutError,
  ValidationError,
  isAbortError,
  isApiError,
  isAuthError,
  isFileError,
  isNetworkError,
  isRateLimitError,
  isRealtimeError,
  isTandemError,
  isTimeoutError,
  isValidationError,
} from '../errors.js'
export type { Collection, ListParams, Page, PagePromise, Resource } from '../collection.js'
export type * from '../types.js'

export { createClient, withServices } from './client.js'
export type { CacheSlot, Client, ClientOptions, ServiceClient, TandemClient, TypedCollection } from './client.js'
// The modular pieces, also here (each tree-shakes): see @tandem/core/client, /maps, /support, /realtime-rest, /cache.
export { maps } from './services/maps.js'
export { support } from './services/support.js'
export { realtimeRest } from './services/realtime.js'
export { getCache } from './cache/get-cache.js'
export { createTokenProvider, isTokenProvider } from './token-provider.js'
export type {
  AuthOptions,
  FetchToken,
  TokenEvents,
  TokenInfo,
  TokenProvider,
  TokenProviderOptions,
  TokenResponse,
} from './token-provider.js'
export { createRateLimiter } from './rate-limiter.js'
export { watchRateLimit } from './rate-limit-store.js'
export { createStore } from './store.js'
export type { ReadableStore, Store } from './store.js'
export type { RateLimitSnapshot, RateLimitStore } from './rate-limit-store.js'
export type { RateLimiter, RateLimiterOptions, RateLimitHeaders } from './rate-limiter.js'
export type { Http } from './http.js'
export type { OutboxLink, OutboxPublish } from './outbox-link.js'
// The browser APIs tabs agree through, declared once: @tandem/realtime/tabs runs on them too.
export type { BroadcastChannelConstructor, BroadcastChannelLike, LockManagerLike } from './persist/types.js'
export type { ClientHooks, Hook, HookContext } from './hooks.js'
export { collection, createCollection, createPagePromise } from './collection.js'
export { logTo } from './logger.js'
export type { LogTo } from './logger.js'
export type { RequestClient } from './client-request.js'
export type { Collection, ListParams, Page, PagePromise, Resource } from './collection.js'
export {
  AbortError,
  ApiError,
  AuthError,
  FileError,
  NetworkError,
  OutboxFullError,
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
  isOutboxFullError,
  isRateLimitError,
  isRealtimeError,
  isTandemError,
  isTimeoutError,
  isValidationError,
} from './errors.js'
export type { TandemErrorOptions } from './errors.js'
export { DEFAULTS } from './defaults.js'
export { CACHE_DEFAULTS } from './cache/defaults.js'
export { createResourceCache } from './cache/resource-cache.js'
export type { ResourceCacheOptions } from './cache/resource-cache.js'
export { callQuery, itemQuery, listQuery, parsePath } from './cache/query.js'
export { createMutation } from './cache/mutation.js'
export type { Mutation, MutationOptions, MutationSnapshot, MutationStatus } from './cache/mutation.js'
export { createEntryObserver } from './cache/observer.js'
export { bindLiveResources, liveChannelName } from './cache/live.js'
export type { LiveChannel, LiveMessage, LiveSource } from './cache/live.js'
export type { EntryObserver, ObserveOptions, ObserverResult } from './cache/observer.js'
export { createFocusManager, createOnlineManager, createTrigger } from './cache/triggers.js'
export type { AttachTrigger, ManualTrigger, OnlineManager, Trigger } from './cache/triggers.js'
export type * from './cache/types.js'
export type * from './types.js'
export { SERVICES } from './types.js'
export type * from './services/maps.js'
export type * from './services/support.js'
export type { FileUpload, MessageUpload, Uploads, UploadsSlot, UploadsSnapshot } from './uploads/types.js'
export type * from './services/realtime.js'
// The contract: the registry of typed collections, the wire rules, the error codes.
export type {
  ApiErrorCode,
  CollectionName,
  CollectionPath,
  Collections,
  CollectionTypes,
  CreateOf,
  ItemOf,
  LatLng,
  OneOf,
  ParamsOf,
  RateLimitBucket,
  RealtimeErrorCode,
  ServiceResource,
  ThreadsPath,
  UpdateOf,
} from '@tandem/contract'

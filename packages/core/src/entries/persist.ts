// @tandem/core/persist: work that survives a reload. The saved cache (`persistCache`), the durable
// outbox (`durableOutbox`) and logout (`clearPersisted`). An app that does not import it ships none of it.
export { persistCache } from '../persist/persist-cache.js'
export { durableOutbox } from '../persist/durable-outbox.js'
export { clearPersisted } from '../persist/clear-persisted.js'
export { indexedDbStorage, memoryStorage } from '../persist/storage.js'
export { PERSIST_DEFAULTS } from '../persist/defaults.js'
export { OutboxFullError, isOutboxFullError } from '../errors.js'
export type * from '../persist/types.js'
export type { OutboxLink, OutboxPublish } from '../outbox-link.js'

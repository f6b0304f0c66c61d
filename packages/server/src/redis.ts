// @tandem/server/redis: a webhook replay store in Redis, shared by every instance of an app.
// Its own entry, so an app that does not use it does not load it. See docs/webhooks.md.
export { createRedisReplayStore } from './redis-replay-store.js'
export type { RedisLike, RedisReplayStoreOptions } from './redis-replay-store.js'

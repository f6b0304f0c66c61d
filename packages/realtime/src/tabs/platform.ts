// The two browser APIs the sharing runs on: a page's, or stand-ins (tests, other runtimes). Core's
// saved cache and durable outbox run on the same two: one declaration, in @tandem/core.
export type { BroadcastChannelConstructor, BroadcastChannelLike, LockManagerLike } from '@tandem/core'

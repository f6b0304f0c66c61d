// @tandem/realtime/presence: a channel's presence, an entry of its own so an app that does not use
// presence does not ship it. `presence(rt.channel(name))` → enter, update, leave, get, subscribe;
// `presenceStore(channel)` → the members as a store for UI bindings. See docs/realtime.md.
export { presence } from './presence/presence.js'
export { presenceStore } from './presence/presence-store.js'
export type { PresenceStoreOptions } from './presence/presence-store.js'
export type { Member, Presence, PresenceEvent } from './types.js'

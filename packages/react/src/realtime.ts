// @tandem/react/realtime: the hooks over a @tandem/realtime connection (an optional peer of
// @tandem/react). Pass the connection to <TandemProvider realtime={…}>. See docs/react.md.
export { useRealtime } from './use-realtime.js'
export { useChannel } from './use-channel.js'
export type { ChannelResult, UseChannelOptions } from './use-channel.js'
export { useMessages } from './use-messages.js'
export type { MessagesResult, UseMessagesOptions } from './use-messages.js'
export { usePresence } from './use-presence.js'
export type { PresenceResult } from './use-presence.js'
export { useConnectionState } from './use-connection-state.js'

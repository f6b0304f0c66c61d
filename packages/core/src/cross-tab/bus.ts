import { platformChannel, type BroadcastChannelConstructor } from './platform.js'

// A typed message channel between the tabs of one origin, on BroadcastChannel: every message is
// parsed before anything reads it (another version's, or a stranger's, is dropped), and where the
// platform has no BroadcastChannel it is silent (a tab alone hears nothing, and says nothing).

export interface Bus<M> {
  /** Posts to the other tabs; false when the message could not be cloned (it stays here). */
  post(message: M): boolean
  close(): void
}

export function openBus<M>(
  name: string,
  parse: (data: unknown) => M | undefined,
  onMessage: (message: M) => void,
  Channel: BroadcastChannelConstructor | undefined = platformChannel(),
): Bus<M> {
  if (!Channel) return { post: () => true, close() {} }
  const channel = new Channel(name)
  channel.onmessage = (event) => {
    const message = parse(event.data)
    if (message !== undefined) onMessage(message)
  }
  return {
    post(message) {
      try {
        channel.postMessage(message)
        return true
      } catch {
        return false
      }
    },
    close: () => channel.close(),
  }
}

import type { ChannelImpl } from './channel.js'
import type { ChannelInfo } from '../types.js'

/** A channel as `rt.channels()` shows it (devtools): read when asked, nothing kept for it. */
export function channelInfo(ch: ChannelImpl): ChannelInfo {
  // Any presence store tracking it has the members: each one's table is the service's list.
  const [known] = ch.attached?.known ?? []
  return { name: ch.name, state: ch.state, position: ch.position, subscribers: ch.subscribers, presence: known?.() }
}

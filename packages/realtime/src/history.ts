// A channel's history (`@tandem/realtime/history`, an entry of its own: an app that does not read
// history does not ship it). The channel's own gap fill reads history without it (channel.ts).
import { internalsOf } from './channels/channel-internals.js'
import { checkHistory } from './messages/history-options.js'
import { isMessage } from './connection/protocol.js'
import type { Channel, HistoryOptions, HistoryPage } from './types.js'

/**
 * Messages of `channel` from history, oldest first: after `since` (else the newest), at most `limit`.
 *
 * @example
 * ```ts
 * const page = await history(rt.channel('chat:lobby'), { limit: 50 })
 * ```
 */
export async function history(channel: Channel, options: HistoryOptions = {}): Promise<HistoryPage> {
  const { host } = internalsOf(channel)
  const { since, limit, timing } = checkHistory(options)
  const r = await host.request({ type: 'history', channel: host.name, since, limit }, timing)
  return { epoch: r.epoch, offset: r.offset, complete: r.complete, messages: r.messages.filter(isMessage) }
}

export type { HistoryOptions, HistoryPage } from './types.js'

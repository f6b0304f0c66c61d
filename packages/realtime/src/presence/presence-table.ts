// Presence members as a table keyed by connectionId (one member per connection; a clientId may
// be present from several), in the service's order: a new member goes last, an update keeps its
// place, as in the service's `presence.get`. Pure helpers: each event costs O(1), not a copy.
import type { Member, PresenceEvent } from '../types.js'

export type MemberTable = Map<string, Member>

/** Same member, same data (by value: data arrives as JSON, so its text is its value). */
export const sameMember = (a: Member, b: Member): boolean =>
  a.clientId === b.clientId && (a.data === b.data || JSON.stringify(a.data) === JSON.stringify(b.data))

/** Applies one event; false when it changed nothing (a leave of a stranger, an update to the same data). */
export function applyEvent(table: MemberTable, { action, member }: PresenceEvent): boolean {
  const key = member.connectionId
  if (action === 'leave') return table.delete(key)
  const had = table.get(key)
  if (had && sameMember(had, member)) return false
  table.set(key, member)
  return true
}

/** A table from the service's answer, keeping `previous`'s object for every member that did not change. */
export function tableOf(list: readonly Member[], previous: MemberTable): MemberTable {
  const table: MemberTable = new Map()
  for (const m of list) {
    const had = previous.get(m.connectionId)
    table.set(m.connectionId, had && sameMember(had, m) ? had : m)
  }
  return table
}

/** Whether `list` holds exactly the table's members (the same objects, in order). */
export function sameList(table: MemberTable, list: readonly Member[]): boolean {
  if (table.size !== list.length) return false
  let i = 0
  for (const m of table.values()) if (m !== list[i++]) return false
  return true
}

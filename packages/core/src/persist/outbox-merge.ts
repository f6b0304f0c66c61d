import type { ReadOutbox } from './outbox-entries.js'
import type { Held, OutboxEffect, OutboxState, Result } from './outbox-machine-types.js'

// How a read of storage meets what this tab knows (part of the pure outbox machine, outbox-machine.ts).

/** The effect that deletes a write's record. */
export const drop = (id: string): OutboxEffect => ({ type: 'remove', id })
/** A write that is over here: its record's delete is on its way. */
export const gone = (h: Held) => h.phase === 'settled' || h.phase === 'refused'

/**
 * The stored writes as read (`read`), with what this tab knows that storage cannot say: a write
 * announced and not stored yet, one being sent, one waiting out its backoff, one whose drop is on
 * its way (kept until that drop is stored). What the read found that must never be sent is dropped
 * (a record that holds no entry at all, silently); the tab whose drop finds it stored says `refused`.
 */
export function merge(s: OutboxState, read: ReadOutbox): Result {
  const local = new Map(s.held.map((h) => [h.entry.id, h]))
  const effects = read.unreadable.map(drop)
  const held: Held[] = []
  const stored = new Set<string>()
  for (const entry of read.entries) {
    stored.add(entry.id)
    const h = local.get(entry.id)
    if (!h || h.phase === 'announced') held.push({ entry, phase: 'stored', own: h?.own })
    else if (h.phase === 'stored' || h.phase === 'blocked') held.push({ ...h, entry })
    else held.push(h)
  }
  for (const { entry, error } of read.refused) {
    stored.add(entry.id)
    const h = local.get(entry.id)
    if (h?.phase === 'refused') held.push(h)
    else {
      held.push({ entry, phase: 'refused', outcome: { error }, found: true })
      effects.push(drop(entry.id))
    }
  }
  // Not stored yet, being sent, or its drop on its way: kept. Stored or waiting: another tab sent or removed it.
  for (const h of s.held)
    if (!stored.has(h.entry.id) && (h.phase === 'announced' || h.phase === 'sending' || gone(h))) held.push(h)
  return { state: { ...s, held }, effects }
}

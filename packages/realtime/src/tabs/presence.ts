// Who is present where, as the tabs tell each other: the channels this tab's client entered (read
// from the frames it sends), and those the other tabs said. A new leader needs both: its hub
// leaves, after a grace, the channels only the departed leader held, since nobody else will.
import type { ClientFrame } from '@tandem/contract'
import type { TabMessage, TabMessageOf } from './wire.js'

export interface TabPresence {
  /** Channels this tab is present on. */
  readonly entered: Set<string>
  /** Reads a frame this tab's client sends; tells the others when its channels change. */
  track(frame: ClientFrame): void
  /** Tells the others this tab's channels (`none`: it is leaving, present nowhere). */
  announce(none?: boolean): void
  /** Another tab's `present`. */
  heard(m: TabMessageOf<'present'>): void
  /** A tab leads: the one before it settled its presence, if it was another. */
  led(leader: string): void
  /** This tab leads: the channels where only the tab that led before was present. */
  orphans(): string[]
}

export function createPresence(tab: string, post: (m: TabMessage) => void): TabPresence {
  const entered = new Set<string>()
  /** What the other tabs are present on, as they said. */
  const present = new Map<string, string[]>()
  /** The tab that led last (kept after its `bye`). */
  let former: string | undefined

  const self: TabPresence = {
    entered,
    track(f) {
      const had = entered.size
      if (f.type === 'presence.leave') entered.delete(f.channel)
      else if (f.type === 'presence.enter' || f.type === 'presence.update') entered.add(f.channel)
      if (entered.size !== had) self.announce()
    },
    announce: (none) => post({ type: 'present', tab, entered: none ? [] : [...entered] }),
    heard(m) {
      if (m.entered.length) present.set(m.tab, m.entered)
      else present.delete(m.tab)
    },
    led(leader) {
      if (former && former !== leader) present.delete(former)
      former = leader
    },
    orphans() {
      const others = [...present].filter(([t]) => t !== former).flatMap(([, e]) => e)
      const orphans = (former ? (present.get(former) ?? []) : []).filter((c) => !entered.has(c) && !others.includes(c))
      if (former) present.delete(former)
      return orphans
    },
  }
  return self
}

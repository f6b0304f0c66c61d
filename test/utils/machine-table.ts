// The table-driven test every state machine gets (docs/architecture.md, "State machines"), written
// once: each row `phase + event (context) → next phase, effect types` is walked through
// `transition`; the rows must be exactly the edges of the machine's TABLE, so adding, removing or
// changing an edge fails until the rows say the same; and every pair not in TABLE changes nothing.
import { expect, it } from 'vitest'

/** `[from, sample event, context, to, effect types in order]` */
export type Row<P extends string, K extends string, C extends string> = readonly [P, K, C, P, readonly string[]]

export interface MachineTable<P extends string, K extends string, C extends string, S, Ev extends { type: string }> {
  TABLE: { readonly [phase in P]: { readonly [type: string]: unknown } }
  transition: (state: S, event: Ev) => { state: S; effects: readonly { type: string }[] }
  /** One sample event of each type (and more where a type has cases), by a short name the rows use. */
  events: Readonly<Record<K, Ev>>
  /** A state in `phase`, with the context a row names. */
  at: (phase: P, context: C) => S
  /** The phase of a state. */
  phaseOf: (state: S) => P
  rows: readonly Row<P, K, C>[]
  /** The context the "ignored pairs" walk builds each state with. */
  anyContext: C
  /** How a row names an effect (its `type` unless said otherwise). */
  effectName?: (effect: { type: string }) => string
  /** What an ignored pair returns as effects (none, unless the machine logs it). */
  ignored?: (phase: P, type: string) => readonly unknown[]
}

export function itWalksTheTable<P extends string, K extends string, C extends string, S, Ev extends { type: string }>(
  m: MachineTable<P, K, C, S, Ev>,
): void {
  const phases = Object.keys(m.TABLE) as P[]
  const samples = Object.values(m.events) as Ev[]
  const types = [...new Set(samples.map((e) => e.type))]

  it.each(m.rows)('%s + %s (%s) → %s, effects %j', (from, event, context, to, effects) => {
    const r = m.transition(m.at(from, context), m.events[event])
    expect(m.phaseOf(r.state)).toBe(to)
    expect(r.effects.map(m.effectName ?? ((e) => e.type))).toEqual(effects)
  })

  it('the rows are exactly the edges of its table, with a sample event of every type', () => {
    const table = phases.flatMap((p) => Object.keys(m.TABLE[p]).map((type) => `${p} + ${type}`))
    const rows = m.rows.map(([from, event]) => `${from} + ${m.events[event].type}`)
    expect([...new Set(rows)].sort()).toEqual(table.sort())
    const handled = new Set(phases.flatMap((p) => Object.keys(m.TABLE[p])))
    expect(
      types.filter((t) => !handled.has(t)),
      'sample events no phase takes',
    ).toEqual([])
  })

  it('ignores a pair it has no edge for: the same state object, no effect', () => {
    let ignored = 0
    for (const phase of phases)
      for (const type of types) {
        if (m.TABLE[phase][type]) continue
        const s = m.at(phase, m.anyContext)
        const r = m.transition(
          s,
          samples.find((e) => e.type === type)!,
        )
        expect(r.state, `${phase} + ${type}`).toBe(s)
        expect(r.effects).toEqual(m.ignored?.(phase, type) ?? [])
        ignored++
      }
    const edges = phases.reduce((n, p) => n + Object.keys(m.TABLE[p]).length, 0)
    expect(ignored).toBe(phases.length * types.length - edges)
  })
}

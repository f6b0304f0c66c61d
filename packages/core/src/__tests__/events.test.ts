import { describe, expect, it } from 'vitest'
import { createEmitter } from '../events.js'

// emit walks the listener list without copying it (it runs per received message): these hold it to
// the guarantees the copy gave.
describe('createEmitter', () => {
  it('runs every listener once when one unsubscribes itself during emit', () => {
    const e = createEmitter<{ m: (n: number) => void }>()
    const calls: string[] = []
    const offA = e.on('m', () => {
      calls.push('a')
      offA()
    })
    e.on('m', () => calls.push('b'))
    e.on('m', () => calls.push('c'))
    e.emit('m', 1)
    e.emit('m', 2)
    expect(calls).toEqual(['a', 'b', 'c', 'b', 'c'])
  })

  it('still runs, this once, a listener another unsubscribed during emit; not afterwards', () => {
    const e = createEmitter<{ m: () => void }>()
    const calls: string[] = []
    e.on('m', () => {
      calls.push('a')
      offB()
    })
    const offB = e.on('m', () => calls.push('b'))
    e.emit('m')
    e.emit('m')
    expect(calls).toEqual(['a', 'b', 'a'])
  })

  it('runs a listener subscribed during emit from the next emit on', () => {
    const e = createEmitter<{ m: () => void }>()
    const calls: string[] = []
    let added = false
    e.on('m', () => {
      calls.push('a')
      if (!added) e.on('m', () => calls.push('late'))
      added = true
    })
    e.emit('m')
    expect(calls).toEqual(['a'])
    e.emit('m')
    expect(calls).toEqual(['a', 'a', 'late'])
    expect(e.has('m')).toBe(true)
  })

  it('runs the others when one throws, and reports the error', () => {
    const e = createEmitter<{ m: () => void }>()
    const reported: unknown[] = []
    const g = globalThis as { reportError?: (e: unknown) => void }
    const saved = g.reportError
    g.reportError = (err) => reported.push(err)
    try {
      const calls: string[] = []
      e.on('m', () => {
        throw new Error('listener')
      })
      e.on('m', () => calls.push('b'))
      e.emit('m')
      expect(calls).toEqual(['b'])
      expect(reported).toHaveLength(1)
    } finally {
      g.reportError = saved
    }
  })
})

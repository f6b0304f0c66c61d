// The one bounded delivery log both webhooks and push record into: what each relies on.
import { afterEach, describe, expect, it } from 'vitest'
import { createDeliveryLog } from '../delivery-log.js'
import { createWebhookModule } from '../webhooks/module.js'

interface Entry {
  id: string
  n: number
}

const summary = (entries: readonly Entry[]) => `${entries.length} logged`
const cleanup: Array<() => void> = []
afterEach(() => {
  for (const step of cleanup.splice(0)) step()
})

describe('createDeliveryLog', () => {
  it('with a key, updates an entry in place, keeps the newest `size`, and tells listeners and waiters', async () => {
    const log = createDeliveryLog<Entry>({ size: 2, name: 'push', key: (e) => e.id, copy: (e) => ({ ...e }), summary })
    cleanup.push(() => log.close())
    const heard: Entry[] = []
    log.on((e) => heard.push(e))
    const second = log.waitFor((e) => e.id === 'a' && e.n === 2, 1000)
    log.record({ id: 'a', n: 1 })
    log.record({ id: 'b', n: 1 })
    log.record({ id: 'a', n: 2 })
    await expect(second).resolves.toEqual({ id: 'a', n: 2 })
    expect(log.list()).toEqual([
      { id: 'a', n: 2 },
      { id: 'b', n: 1 },
    ])
    log.record({ id: 'c', n: 1 })
    expect(log.list().map((e) => e.id)).toEqual(['b', 'c'])
    // The dropped id is a new entry again, not an update of nothing.
    log.record({ id: 'a', n: 3 })
    expect(log.list().map((e) => e.id)).toEqual(['c', 'a'])
    expect(heard.map((e) => `${e.id}${e.n}`)).toEqual(['a1', 'b1', 'a2', 'c1', 'a3'])
    // Copies: what a caller holds cannot change the log.
    log.list()[0]!.n = 99
    expect(log.list()[0]!.n).toBe(1)
  })

  it('without a key, appends every record and hands out the live array', () => {
    const log = createDeliveryLog<Entry>({ size: 3, name: 'webhooks', summary })
    const live = log.entries
    const entry = { id: 'a', n: 1 }
    log.record(entry)
    log.record({ id: 'a', n: 2 })
    expect(live).toEqual([entry, { id: 'a', n: 2 }])
    expect(live[0]).toBe(entry)
    log.clear()
    expect(live).toEqual([])
  })

  it('rejects waits past close, and a timeout a timer cannot hold', async () => {
    const log = createDeliveryLog<Entry>({ size: 3, name: 'webhooks', summary })
    const pending = log.waitFor(() => false, 1000)
    log.close()
    await expect(pending).rejects.toThrow('webhooks.waitFor: the emulator closed')
    await expect(log.waitFor(() => false, 1000)).rejects.toThrow('webhooks.waitFor: the emulator is closed')
    await expect(log.waitFor(() => false, 2 ** 31)).rejects.toThrow(RangeError)
  })
})

describe('emulator.webhooks.waitFor', () => {
  it('refuses a timeout of 2^31 ms or more (Node would fire it at once) with a RangeError', async () => {
    const webhooks = createWebhookModule()
    cleanup.push(() => webhooks.close())
    await expect(webhooks.controls.waitFor(() => false, { timeoutMs: 2 ** 31 })).rejects.toThrow(RangeError)
  })
})

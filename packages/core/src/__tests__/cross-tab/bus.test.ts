import { describe, expect, it } from 'vitest'
import { during, waitUntil } from '../../../../../test/utils/wait.js'
import { openBus } from '../../cross-tab/bus.js'

// The one cross-tab bus (BroadcastChannel; Node has one): typed messages, parsed before anyone
// reads them, and a silent bus where the platform has no channel.

type Message = { n: number }
const parse = (data: unknown): Message | undefined =>
  typeof data === 'object' && data !== null && typeof (data as Message).n === 'number' ? (data as Message) : undefined

describe('openBus', () => {
  it('delivers what parses, drops what does not, and says when a message cannot be cloned', async () => {
    const heard: Message[] = []
    const a = openBus('bus-test', parse, () => undefined)
    const b = openBus('bus-test', parse, (m) => heard.push(m))
    const stranger = new BroadcastChannel('bus-test')
    stranger.postMessage({ n: 'not a number' })
    stranger.postMessage('hello')
    expect(a.post({ n: 1 })).toBe(true)
    expect(a.post({ n: 2, f: () => 1 } as Message)).toBe(false) // a function: not clonable, stays here
    expect(a.post({ n: 3 })).toBe(true)
    await waitUntil(() => heard.length === 2, { what: 'two messages' })
    expect(heard).toEqual([{ n: 1 }, { n: 3 }])
    for (const c of [a, b, stranger]) c.close()
  })

  it('is silent without a BroadcastChannel: it hears nothing, says nothing, and nothing throws', async () => {
    const heard: Message[] = []
    const other = openBus('nowhere', parse, (m) => heard.push(m))
    const silent = openBus('nowhere', parse, (m) => heard.push(m), null as never)
    expect(silent.post({ n: 1 })).toBe(true)
    const probe = openBus('nowhere', parse, () => undefined)
    probe.post({ n: 2 })
    await waitUntil(() => heard.length > 0, { what: 'the probe heard by the real bus' })
    await during(20)
    expect(heard, 'only the real bus heard the probe; the silent one sent nothing').toEqual([{ n: 2 }])
    for (const c of [other, silent, probe]) c.close()
  })
})

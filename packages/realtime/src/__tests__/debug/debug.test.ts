// Debug lines only when asked for (`debug: debugLog()` from @tandem/realtime/debug), and then with
// anything token-shaped scrubbed.
import { isValidationError, type Logger } from '@tandem/core'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { debugLog } from '../../debug.js'
import { client, untilSubscribed, useEmulator } from '../helpers.js'

const emu = useEmulator()

afterEach(() => {
  vi.restoreAllMocks()
})

const memory = () => {
  const lines: string[] = []
  return { lines, sink: { debug: (line: string) => void lines.push(line) } satisfies Logger }
}

describe('debug lines', () => {
  it('debugLog(sink): states and frames by type, with the connection id; never a frame body', async () => {
    const { lines, sink } = memory()
    const rt = client(emu(), { subject: 'debugger' }, { debug: debugLog(sink) })
    const ch = rt.channel('dbg:a')
    ch.subscribe(() => {})
    await untilSubscribed(ch)
    await ch.publish('e', { secret: 'not in a log' })
    expect(lines.some((l) => l.includes('-> subscribe'))).toBe(true)
    expect(lines.some((l) => l.startsWith(`[tandem:realtime ${rt.connectionId}]`))).toBe(true)
    expect(lines.join('\n')).not.toContain('not in a log')
  })

  it('scrubs anything token-shaped in a line', () => {
    const { lines, sink } = memory()
    const log = debugLog(sink)(() => 'c1')
    log('Bearer abc.def.ghi and eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln and ?token=s3cret')
    expect(lines).toEqual(['[tandem:realtime c1] Bearer [redacted] and [redacted] and ?token=[redacted]'])
  })

  it('without the option nothing is logged, to the console or anywhere', async () => {
    const spy = vi.spyOn(console, 'debug')
    const rt = client(emu(), { subject: 'quiet' })
    const ch = rt.channel('dbg:b')
    ch.subscribe(() => {})
    await untilSubscribed(ch)
    await ch.publish('e', null)
    expect(spy).not.toHaveBeenCalled()
  })

  it('refuses, by name, what the option took before (true, a logger) and debugLog uncalled', () => {
    for (const debug of [true, console, debugLog, () => () => {}]) {
      let thrown: unknown
      try {
        client(emu(), {}, { debug: debug as never })
      } catch (e) {
        thrown = e
      }
      expect(isValidationError(thrown) && thrown.field).toBe('debug')
    }
  })
})

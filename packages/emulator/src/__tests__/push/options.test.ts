// The emulator's `push` options (src/push/module.ts): a grace or timeout no timer can hold (NaN,
// negative, 2^31 ms or more, where Node fires at once) is refused when the emulator is made.
import { describe, expect, it } from 'vitest'
import { createEmulator } from '../../emulator.js'

describe('push options', () => {
  it.each([NaN, -1, 2 ** 31, Infinity])('refuses graceMs %s', (graceMs) => {
    expect(() => createEmulator({ push: { graceMs } })).toThrow(RangeError)
  })

  it.each([0, NaN, 2 ** 31])('refuses timeoutMs %s', (timeoutMs) => {
    expect(() => createEmulator({ push: { timeoutMs } })).toThrow(RangeError)
  })

  it('takes a grace of 0 (push at once) and the largest timer', () => {
    expect(createEmulator({ push: { graceMs: 0, timeoutMs: 2 ** 31 - 1 } }).push.deliveries()).toEqual([])
  })
})

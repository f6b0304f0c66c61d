// What the optional entries keep for a client (the lease pool, the connection store, watchFrames'
// listeners, resource presence's registries) is a part of that client, under its PARTS symbol: not
// a module-level table of clients. Each client keeps its own; anything else is refused by name.
import { isValidationError } from '@tandem/core'
import { describe, expect, it } from 'vitest'
import { connectionStore, createRealtime, leaseChannel, leasedChannels, type Realtime } from '../index.js'
import { PARTS, type Parts } from '../parts.js'

const offline = () =>
  createRealtime(
    { url: 'ws://127.0.0.1:9', auth: { fetchToken: () => Promise.reject(new Error('unused')) } },
    { autoConnect: false },
  ) as Realtime & { [PARTS]: Parts }

describe('a client owns what the entries keep for it', () => {
  it('the lease pool and the connection store are parts of the client, one per client', () => {
    const a = offline()
    const b = offline()
    const release = leaseChannel(a, 'room:1')
    expect(leasedChannels(a)).toBe(1)
    expect(leasedChannels(b)).toBe(0)
    expect(connectionStore(a)).toBe(connectionStore(a))
    expect(connectionStore(a)).not.toBe(connectionStore(b))
    expect(a[PARTS].leases?.size).toBe(1)
    expect(a[PARTS].connection).toBe(connectionStore(a))
    expect(b[PARTS].leases).toBeUndefined()
    release()
    a.close()
    b.close()
  })

  it('refuses, by name, a client createRealtime did not make', () => {
    const stranger = { channel: () => ({ subscribe: () => () => {} }), on: () => () => {} } as unknown as Realtime
    expect(() => leaseChannel(stranger, 'room:1')).toThrow(/leaseChannel/)
    expect(() => connectionStore(stranger)).toThrow(/connectionStore/)
    try {
      connectionStore(stranger)
    } catch (e) {
      expect(isValidationError(e)).toBe(true)
    }
  })
})

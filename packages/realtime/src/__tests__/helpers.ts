// Shared test helpers: a real emulator on 127.0.0.1:0, clients on `ws`, and bounded waits on events (no sleeps).
import { until } from '../../../../test/utils/wait.js'
import { startEmulator, type Emulator, type EmulatorOptions } from '@tandem/emulator'
import { afterAll, beforeAll } from 'vitest'
import { WebSocket } from 'ws'
import { createRealtime, type Realtime, type RealtimeOptions } from '../index.js'
import type { Channel, ConnectionState, Message } from '../types.js'

export function useEmulator(options: EmulatorOptions = {}): () => Emulator {
  let emu: Emulator | undefined
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, host: '127.0.0.1', ...options })
  })
  afterAll(async () => {
    await emu?.close()
  })
  return () => {
    if (!emu) throw new Error('emulator not started')
    return emu
  }
}

const open: Realtime[] = []
/** Closes the clients `client` made; after each test (setup.ts). */
export function closeClients(): void {
  for (const rt of open.splice(0)) rt.close()
}

export interface ClientSetup {
  subject?: string
  scope?: string[]
  /** Seconds the client believes its tokens live (the emulator's own minimum is 60 s). */
  expiresIn?: number
  /** The token's `profile` claim (an agent's verified name, shown in resource presence). */
  profile?: { name?: string; email?: string }
  fetchToken?: () => Promise<{ token: string; expiresIn: number }>
}

/** A client on `ws`, closed after the test. Counts its token fetches. */
export function client(emu: Emulator, setup: ClientSetup = {}, options: RealtimeOptions = {}) {
  const stats = { tokens: 0 }
  const fetchToken =
    setup.fetchToken ??
    (async () => ({
      token: await emu.mintToken({
        subject: setup.subject ?? 'user_1',
        scope: setup.scope ?? ['realtime'],
        ...(setup.profile ? { profile: setup.profile } : {}),
      }),
      expiresIn: setup.expiresIn ?? 600,
    }))
  const rt = createRealtime(
    {
      auth: {
        fetchToken: () => {
          stats.tokens++
          return fetchToken()
        },
      },
      url: `${emu.url}/realtime`,
    },
    { WebSocket, backoff: { baseMs: 20, capMs: 200 }, ...options },
  )
  open.push(rt)
  return Object.assign(rt, { stats })
}

export const untilState = (rt: Realtime, state: ConnectionState, timeoutMs = 5_000) =>
  until(
    (cb) => rt.on('state', cb),
    () => rt.state === state,
    timeoutMs,
    `state ${state} (now ${rt.state})`,
  )

export const untilSubscribed = (ch: Channel, timeoutMs = 5_000) =>
  until(
    (cb) => ch.on('state', cb),
    () => ch.state === 'subscribed',
    timeoutMs,
    `${ch.name} subscribed (now ${ch.state})`,
  )

/** Collects a channel's messages. */
export function collect(rt: Realtime, name: string) {
  const messages: Message[] = []
  const waiters = new Set<() => void>()
  const off = rt.channel(name).subscribe((m) => {
    messages.push(m)
    for (const w of [...waiters]) w()
  })
  const on = (cb: () => void) => {
    waiters.add(cb)
    return () => void waiters.delete(cb)
  }
  return {
    messages,
    off,
    count: (n: number, timeoutMs = 5_000) =>
      until(on, () => messages.length >= n, timeoutMs, `${n} messages on ${name} (have ${messages.length})`),
  }
}

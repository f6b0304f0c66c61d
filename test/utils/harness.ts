// Shared set-up of the reliability suite: an emulator, realtime clients on `ws` whose tokens are
// counted, and a watch on the process for uncaught exceptions and unhandled rejections.
import type { Emulator } from '@tandem/emulator'
import { createRealtime, type Channel, type Realtime, type RealtimeOptions } from '@tandem/realtime'
import { WebSocket } from 'ws'
import { slack, waitUntil } from './wait.js'

export interface RealtimeSetup {
  /** Where the socket goes: the emulator's url or a proxy's (`/realtime` is appended). */
  url: string
  subject?: string
  scope?: string[]
  /** Token lifetime the client is told (the emulator's own minimum is 60 s). */
  expiresIn?: number
}

export type CountedRealtime = Realtime & { tokens: number; urls: string[] }

/**
 * A realtime client whose tokens are minted by the emulator directly (so only the socket goes
 * through a proxy). Counts token fetches and records every URL it opens a socket on.
 */
export function realtimeClient(emu: Emulator, setup: RealtimeSetup, options: RealtimeOptions = {}): CountedRealtime {
  const state = { tokens: 0, urls: [] as string[] }
  const fetchToken = async () => {
    state.tokens++
    return {
      token: await emu.mintToken({ subject: setup.subject ?? 'user_1', scope: setup.scope ?? ['realtime'] }),
      expiresIn: setup.expiresIn ?? 600,
    }
  }
  class RecordingWebSocket extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols)
      state.urls.push(String(url))
    }
  }
  const rt = createRealtime(
    { auth: { fetchToken }, url: `${setup.url}/realtime` },
    { WebSocket: RecordingWebSocket, ...options },
  )
  return Object.defineProperties(rt, {
    tokens: { get: () => state.tokens },
    urls: { get: () => state.urls },
  }) as CountedRealtime
}

export const untilState = (rt: Realtime, state: Realtime['state'], timeoutMs = slack(10_000)) =>
  waitUntil(() => rt.state === state, {
    timeoutMs,
    what: `realtime state ${state} (now ${rt.state})`,
    on: (cb) => rt.on('state', cb),
  })

export const untilSubscribed = (channels: Channel[], timeoutMs = slack(10_000)) =>
  waitUntil(() => channels.every((c) => c.state === 'subscribed'), {
    timeoutMs,
    what: `channels subscribed (${channels
      .filter((c) => c.state !== 'subscribed')
      .map((c) => `${c.name}:${c.state}`)
      .join(', ')})`,
  })

export interface ProcessWatch {
  readonly uncaught: unknown[]
  readonly unhandled: unknown[]
  stop(): void
}

/**
 * Records every uncaught exception and unhandled rejection while it runs. Vitest installs its
 * own handlers too (and fails the run on them); ours only record, so the test can assert none.
 */
export function watchProcess(): ProcessWatch {
  const uncaught: unknown[] = []
  const unhandled: unknown[] = []
  const onUncaught = (e: unknown) => void uncaught.push(e)
  const onUnhandled = (e: unknown) => void unhandled.push(e)
  process.on('uncaughtException', onUncaught)
  process.on('unhandledRejection', onUnhandled)
  return {
    uncaught,
    unhandled,
    stop() {
      process.off('uncaughtException', onUncaught)
      process.off('unhandledRejection', onUnhandled)
    },
  }
}

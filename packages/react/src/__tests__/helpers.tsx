// Shared test helpers: a real emulator on 127.0.0.1, a client with its requests counted, and a provider wrapper.
import { until } from '../../../../test/utils/wait.js'
import type { ClientOptions, RequestEvent, TandemClient } from '@tandem/core'
import { createClientOfStyle } from '../../../core/src/__tests__/client-style.js'
import { startEmulator, type Emulator, type EmulatorOptions } from '@tandem/emulator'
import { createRealtime, type Realtime } from '@tandem/realtime'
import { cleanup } from '@testing-library/react'
import type { ReactNode } from 'react'
import { vi } from 'vitest'
import WebSocket from 'ws'
import { TandemProvider } from '../index.js'

// Under happy-dom, `ws` resolves to its browser stub; the emulator (Node) needs the real one.
vi.mock('ws', async () => {
  const { createRequire } = await import('node:module')
  const ws = createRequire(import.meta.url)('ws') as Record<string, unknown>
  return { ...ws, default: ws }
})

const open: (() => unknown)[] = []
/** Unmounts, then closes what the helpers opened; after each test (setup.ts). */
export async function cleanupAll(): Promise<void> {
  cleanup() // unmount before the emulator goes, so no fetch outlives it
  for (const close of open.splice(0).reverse()) await close()
}

export interface Setup {
  emu: Emulator
  client: TandemClient
  /** Requests as the client saw them (happy-dom's fetch adds CORS preflights the emulator counts too). */
  requests: RequestEvent[]
  /** Set with `setup({ realtime: true })`: on `ws`, sharing the client's tokens. */
  realtime: Realtime | undefined
  gets: (path?: string) => number
  wrapper: (props: { children?: ReactNode }) => ReactNode
}

export async function setup(
  o: { emulator?: EmulatorOptions; client?: Partial<ClientOptions>; realtime?: boolean } = {},
): Promise<Setup> {
  const emu = await startEmulator({ host: '127.0.0.1', port: 0, ...o.emulator })
  const { client, base } = createClientOfStyle({
    baseUrl: emu.url,
    auth: { url: `${emu.url}/dev/token` },
    retry: false,
    ...o.client,
  })
  const realtime = o.realtime
    ? createRealtime({ client }, { WebSocket, backoff: { baseMs: 20, capMs: 100 } })
    : undefined
  open.push(
    () => emu.close(),
    () => client.cache.clear(),
    () => realtime?.close(),
  )
  const requests: RequestEvent[] = []
  client.on('request', (e) => void requests.push(e))
  const gets = (path?: string) =>
    requests.filter((r) => r.method === 'GET' && (!path || r.path === path) && r.errorCode !== 'aborted').length
  const wrapper = ({ children }: { children?: ReactNode }) => (
    <TandemProvider client={base} realtime={realtime}>
      {children}
    </TandemProvider>
  )
  return { emu, client, realtime, requests, gets, wrapper }
}

/** Waits until the client has seen `n` requests matching `match`. */
export const untilRequests = (
  s: Setup,
  n: number,
  match: (e: RequestEvent) => boolean = () => true,
  timeoutMs = 5_000,
) =>
  until(
    (cb) => s.client.on('request', cb),
    () => s.requests.filter(match).length >= n,
    timeoutMs,
    `${n} requests`,
  )

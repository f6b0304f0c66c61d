// What the push tests share: a controller on the browser's stand-in, stopped after each test, and
// what the service holds, read back from the service over HTTP.
import type { PushSubscriptionPage } from '@tandem/contract'
import { afterEach, vi } from 'vitest'
import { during, waitUntil, within } from '../../../../../test/utils/wait.js'
import { createPush, type PushController, type PushOptions } from '../../entries/push.js'
import type { TandemClient } from '../../index.js'
import type { FakeBrowser } from './fake-browser.js'

const pushes: PushController[] = []
/** Registers the cleanup in the test file that calls it (isolation is off: once per file, at its top). */
export function stopPushesAfterEach(): void {
  afterEach(() => {
    stopAll()
    vi.unstubAllGlobals()
    vi.restoreAllMocks()
  })
}

/** Stopped after the test. */
export const track = (push: PushController): PushController => (pushes.push(push), push)
/** Stops every controller now (a page closed). */
export const stopAll = (): void => pushes.splice(0).forEach((p) => p.stop())

export const started = (client: TandemClient, browser: FakeBrowser, o: Partial<PushOptions> = {}): PushController => {
  return track(createPush(client, { serviceWorker: Promise.resolve(browser.registration), ...o }))
}

export const LIST = { service: 'realtime', method: 'GET', path: '/v1/push/subscriptions' } as const
/** The endpoints the service holds for the client's subject. */
export const listed = async (client: TandemClient): Promise<string[]> =>
  (await client.request<PushSubscriptionPage>(LIST)).data.map((s) => s.endpoint)

/** Resolves once the service lists exactly `expected` (a removal is not awaited by what caused it). */
export const listsSoon = (client: TandemClient, expected: () => (string | undefined)[], what: string): Promise<void> =>
  within(
    (async () => {
      while (JSON.stringify(await listed(client)) !== JSON.stringify(expected())) await during(10)
    })(),
    10_000,
    what,
  )

export const serviceKey = async (client: TandemClient): Promise<string> =>
  (await client.request<{ publicKey: string }>({ service: 'realtime', method: 'GET', path: '/v1/push/key' })).publicKey

/** Resolves once the store shows `status`. */
export const reach = (push: PushController, status: string): Promise<void> =>
  waitUntil(() => push.getSnapshot().status === status, { what: `push ${status}` })

export const endpointOf = (browser: FakeBrowser): string | undefined => browser.pushManager.current?.endpoint

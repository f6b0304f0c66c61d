import { cleanup, render } from '@testing-library/react'
import { StrictMode } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { poll, waitUntil } from '../../../../test/utils/wait.js'
import type { TandemDevtoolsElement } from '../element.js'
import { createDevtoolsRecorder, mountDevtools } from '../index.js'
import { TandemDevtools } from '../react.js'
import type { DevtoolsRecorder } from '../types.js'
import { mount, openPanel, setup, tab, type Setup } from './helpers.js'

// The devtools record from the start of the page, not from when the element's chunk has loaded:
// a recorder the app made early, the one mountDevtools and <TandemDevtools> make at once, and the
// connection's `idle → connecting` (said synchronously by connect()) made before the element is
// on the page; a recorder given is the app's: never stopped by the devtools.

afterEach(() => {
  cleanup()
  for (const el of document.body.querySelectorAll('tandem-devtools')) el.remove()
})

const resources = { service: 'maps', method: 'GET', path: '/v1/resources' } as const
const onPage = () => document.body.querySelector<TandemDevtoolsElement>('tandem-devtools')

/** The Connection tab's timeline, oldest first. */
async function timelineOf(el: TandemDevtoolsElement): Promise<string[]> {
  const connection = tab(await openPanel(el), 'Connection')
  connection.tab.click() // a tab renders while shown
  const { panel } = connection
  await poll(() => panel.querySelector('ul.rows li') !== null, 'the timeline')
  return [...panel.querySelector('ul.rows')!.children].map((li) => li.textContent!).reverse()
}

/** The request's row is in the Requests tab (by its request id). */
async function requestShown(el: TandemDevtoolsElement, s: Setup, i: number): Promise<string> {
  const requests = tab(await openPanel(el), 'Requests')
  requests.tab.click()
  const { panel } = requests
  const requestId = s.requests[i]!.requestId!
  await poll(() => panel.textContent!.includes(`request id ${requestId}`), `the row of request ${requestId}`)
  return [...panel.querySelectorAll('.line')].map((line) => line.textContent).join('\n')
}

describe('recording from the start of the page', () => {
  it('a recorder the app made early: a request completed before any devtools element is in the panel', async () => {
    const s = await setup()
    const recorder = createDevtoolsRecorder({ client: s.client, realtime: s.realtime })!
    s.realtime.connect()
    await s.client.request(resources)
    await waitUntil(() => s.realtime.state === 'connected', { what: 'connected' })
    expect(onPage()).toBeNull()

    const el = mount({ client: s.client, realtime: s.realtime, recorder })
    expect(el.recorder).toBe(recorder)
    expect(await requestShown(el, s, 0)).toContain('GET /maps/v1/resources 200')
    const rows = await timelineOf(el)
    expect(rows[0]).toMatch(/recording started: idle$/)
    expect(rows.slice(1, 3).map((r) => r.replace(/^.*? (\w+ → \w+).*$/, '$1'))).toEqual([
      'idle → connecting',
      'connecting → connected',
    ])
  })

  it('mountDevtools records at once: the first connect, said before its element is on the page, is in the timeline', async () => {
    const s = await setup()
    const unmount = mountDevtools({ client: s.client, realtime: s.realtime })
    s.realtime.connect() // idle → connecting, synchronously: the element's chunk cannot have loaded yet
    expect(onPage()).toBeNull()
    await s.client.request(resources)
    await poll(() => onPage()?.recorder !== undefined, 'the element')
    const el = onPage()!
    await requestShown(el, s, 0)
    const rows = await timelineOf(el)
    expect(rows[0]).toMatch(/recording started: idle$/)
    expect(rows[1]).toMatch(/ idle → connecting( · |$)/)

    // The recorder it made is stopped with it.
    const recorder = el.recorder!
    unmount()
    expect(onPage()).toBeNull()
    await s.client.request(resources)
    expect(recorder.getSnapshot().totals.requests).toBe(1)
  })

  it('<TandemDevtools /> records from its first effect, before the element is defined (StrictMode)', async () => {
    const s = await setup()
    const { container, unmount } = render(
      <StrictMode>
        <TandemDevtools client={s.client} realtime={s.realtime} />
      </StrictMode>,
    )
    s.realtime.connect()
    const el = container.querySelector<TandemDevtoolsElement>('tandem-devtools')!
    await poll(() => el.client === s.client, 'the element defined, its properties set')
    const rows = await timelineOf(el)
    expect(rows[0]).toMatch(/recording started: idle$/)
    expect(rows[1]).toMatch(/ idle → connecting( · |$)/)
    // The recorder kept is the live one (StrictMode's first is stopped): it still records.
    await s.client.request(resources)
    await requestShown(el, s, 0)

    const recorder = el.recorder!
    unmount()
    await s.client.request(resources)
    expect(recorder.getSnapshot().totals.requests).toBe(1)
  })

  it('a recorder given is never stopped by the devtools: element, mountDevtools, <TandemDevtools recorder>', async () => {
    const s = await setup()
    const recorders: DevtoolsRecorder[] = []
    const given = () => {
      const recorder = createDevtoolsRecorder({ client: s.client })!
      recorders.push(recorder)
      return recorder
    }

    const el = mount({ client: s.client, recorder: given() })
    expect(el.recorder).toBe(recorders[0])
    el.remove()

    const unmount = mountDevtools({ client: s.client, recorder: given() })
    await poll(() => onPage()?.recorder === recorders[1], 'the element with the recorder given')
    unmount()

    const react = render(<TandemDevtools client={s.client} recorder={given()} />)
    const reactEl = react.container.querySelector<TandemDevtoolsElement>('tandem-devtools')!
    await poll(() => reactEl.recorder === recorders[2], 'the element with the recorder given')
    react.unmount()

    expect(onPage()).toBeNull()
    await s.client.request(resources)
    for (const recorder of recorders) expect(recorder.getSnapshot().requests).toHaveLength(1)
    for (const recorder of recorders) recorder.stop()
  })
})

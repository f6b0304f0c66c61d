// @tandem/react/push: usePush over a real createPush (the logic is @tandem/core/push). happy-dom
// has no push: the page is `unsupported`; with the browser's stand-in (core's fake-browser.ts) a
// click subscribes through the emulator over HTTP, and the component follows the store.
import { createPush, type PushController } from '@tandem/core/push'
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { renderToString } from 'react-dom/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { installBrowser } from '../../../core/src/__tests__/push/fake-browser.js'
import { usePush } from '../push.js'
import { setup } from './helpers.js'

const pushes: PushController[] = []
afterEach(() => {
  pushes.splice(0).forEach((p) => p.stop())
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

function Toggle({ push }: { push: PushController }) {
  const { status, reason } = usePush(push)
  return (
    <button
      data-status={status}
      data-reason={reason ?? ''}
      onClick={() => void (status === 'subscribed' ? push.disable() : push.enable())}
    >
      {status}
    </button>
  )
}

describe('usePush', () => {
  it('shows what the store says: unsupported where the browser has no push (happy-dom), and on the server', async () => {
    const { client } = await setup()
    const push = createPush(client, { serviceWorker: Promise.reject(new Error('none')) })
    pushes.push(push)
    expect(renderToString(<Toggle push={push} />)).toContain('unsupported')
    render(<Toggle push={push} />)
    expect(screen.getByRole('button').dataset).toMatchObject({ status: 'unsupported', reason: 'no_service_worker' })
  })

  it('follows the store: a click subscribes, the next one disables', async () => {
    const { client } = await setup()
    const browser = installBrowser()
    const push = createPush(client, { serviceWorker: Promise.resolve(browser.registration) })
    pushes.push(push)
    render(<Toggle push={push} />)
    const button = screen.getByRole('button')
    expect(button.dataset.status).toBe('default')
    act(() => void fireEvent.click(button))
    await waitFor(() => expect(button.dataset.status).toBe('subscribed'))
    act(() => void fireEvent.click(button))
    await waitFor(() => expect(button.dataset).toMatchObject({ status: 'default', reason: 'disabled' }))
    await push.disable() // the removal the click started has ended (the service's DELETE too)
  })
})

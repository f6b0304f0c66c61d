// A message's progress row as the uploads store reports it (a store shaped like core's, driven by
// the test: a send that failed and waits for the outbox's retry comes only from a durable outbox's
// backoff). A failed send is said, beside its bar and once through the live region, and keeps its
// Cancel; a send whose files are all up has none.
import type { MessageUpload, Uploads, UploadsSnapshot } from '@tandem/core/uploads'
import { describe, expect, it } from 'vitest'
import { createUploadProgress } from '../panel/upload-progress.js'
import type { PanelContext } from '../panel/view.js'
import { DEFAULT_STRINGS } from '../strings.js'

function fakeStore() {
  let snapshot: UploadsSnapshot = { messages: [] }
  const listeners = new Set<() => void>()
  const cancelled: string[] = []
  const store: Uploads = {
    getSnapshot: () => snapshot,
    subscribe: (l) => (listeners.add(l), () => void listeners.delete(l)),
    cancel: async (key) => (cancelled.push(key), true),
  }
  const set = (m: Partial<MessageUpload>) => {
    const message = {
      key: 'k1',
      service: 'support',
      path: '/v1/me/conversations',
      status: 'uploading',
      bytesSent: 5,
      bytesTotal: 10,
      files: [],
      error: null,
      ...m,
    } as MessageUpload
    snapshot = { messages: [message] }
    listeners.forEach((l) => l())
  }
  return { store, set, cancelled }
}

describe('upload progress', () => {
  it('a failed send waiting to be tried again is said and can be cancelled; a send on its way cannot', () => {
    const said: string[] = []
    const ctx = { strings: () => DEFAULT_STRINGS, announce: (t: string) => said.push(t) } as unknown as PanelContext
    const { store, set, cancelled } = fakeStore()
    const progress = createUploadProgress(
      ctx,
      store,
      () => true,
      () => {},
    )
    const cancel = () => progress.node.querySelector<HTMLButtonElement>('button')!
    const note = () => progress.node.querySelector<HTMLElement>('.note')!
    set({ status: 'uploading' })
    expect(cancel().hidden).toBe(false)
    expect(note().hidden).toBe(true)

    set({ status: 'failed' })
    expect(cancel().hidden).toBe(false)
    expect(note().hidden).toBe(false)
    expect(note().textContent).toBe(DEFAULT_STRINGS.filesWillRetry)
    set({ status: 'failed', bytesSent: 6 })
    expect(said).toEqual([DEFAULT_STRINGS.filesWillRetry]) // said once per failure
    cancel().click()
    expect(cancelled).toEqual(['k1'])

    set({ status: 'sending' })
    expect(cancel().hidden).toBe(true)
    expect(note().hidden).toBe(true)
    progress.destroy()
  })
})

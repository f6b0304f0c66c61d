// @tandem/react/uploads: useUploads over the client's real uploads store (the logic is
// @tandem/core/uploads): a reply with a file shows its progress and leaves once applied; Cancel
// stops it (the write fails `upload_cancelled`). The client's own or the provider's.
import { UPLOADS } from '@tandem/contract'
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { useUploads } from '../uploads.js'
import { setup } from './helpers.js'

function Progress({ client }: { client?: Parameters<typeof useUploads>[0] }) {
  const { messages, cancel } = useUploads(client)
  return (
    <ul>
      {messages.map((m) => (
        <li key={m.key} data-status={m.status} data-sent={m.bytesSent} data-total={m.bytesTotal}>
          {m.files.map((f) => f.name).join(', ')}
          <button onClick={() => void cancel(m.key)}>Cancel</button>
        </li>
      ))}
    </ul>
  )
}

const png = (bytes: number) => {
  const head = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
  const size = Uint8Array.from([0, 0, 0, 2, 0, 0, 0, 3, 8, 6, 0, 0, 0, 0x72, 0xb6, 0x0d, 0x24])
  return new File([head, size, new Uint8Array(bytes - 33)], 'shot.png', { type: 'image/png' })
}

describe('useUploads', () => {
  it('nothing under way: an empty list, on the server too; the provider’s client when none is given', async () => {
    const s = await setup()
    expect(renderToString(<Progress client={s.client} />)).toBe('<ul></ul>')
    render(<Progress />, { wrapper: s.wrapper })
    expect(screen.queryAllByRole('listitem')).toEqual([])
  })

  it('a reply with a file: shown while it goes, gone once applied; Cancel stops another', async () => {
    const s = await setup()
    s.emu.faults.latency(150, { service: 'support' })
    const [c] = (await s.client.support.conversations.list({ limit: 1 })).data
    render(<Progress />, { wrapper: s.wrapper })
    const sent = s.client.support.conversations.reply(c!.id, { text: 'See', files: [png(UPLOADS.chunkBytes + 10)] })
    await waitFor(() => expect(screen.getByRole('listitem').textContent).toContain('shot.png'))
    expect(Number(screen.getByRole('listitem').dataset.total)).toBe(UPLOADS.chunkBytes + 10)
    expect((await sent).attachments).toHaveLength(1)
    await waitFor(() => expect(screen.queryAllByRole('listitem')).toEqual([]))

    const stopped = s.client.support.conversations
      .reply(c!.id, { text: 'Big', files: [png(UPLOADS.chunkBytes * 4)] })
      .catch((e: unknown) => e)
    await waitFor(() => expect(Number(screen.getByRole('listitem').dataset.sent)).toBeGreaterThan(0))
    act(() => void fireEvent.click(screen.getByRole('button', { name: 'Cancel' })))
    expect(await stopped).toMatchObject({ code: 'upload_cancelled' })
    await waitFor(() => expect(screen.queryAllByRole('listitem')).toEqual([]))
  })
})

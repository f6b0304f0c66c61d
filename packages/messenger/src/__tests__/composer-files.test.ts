// The composer's files in happy-dom against the emulator over HTTP: chosen from the attach
// button's picker, pasted or dropped; refused ones said (in the page's words where it gives them)
// and never chips; a message with files sent and shown with its download link; progress and
// Cancel while the files go up; the customer's typing told as it types, stopped on send and blur.
import { describe, expect, it } from 'vitest'
import { poll } from '../../../../test/utils/wait.js'
import {
  alertOf,
  choose,
  chipNames,
  customer,
  key,
  launcherOf,
  live,
  mount,
  newConversation,
  shown,
  type,
} from './helpers.js'

const file = (name: string, type: string, size = 5, fill = 0x61) =>
  new File([new Uint8Array(size).fill(fill)], name, { type })

describe('<tandem-messenger> composer: files', () => {
  it('the attach button opens the picker; refusals are said in an alert, the rest become chips, announced', async () => {
    const { desk } = await customer()
    const el = mount(desk)
    el.strings = { tooManyFiles: (max) => `Höchstens ${max} Dateien.` }
    const root = await newConversation(el)
    const picker = root.querySelector<HTMLInputElement>('input[type=file]')!
    expect(picker.hidden).toBe(true)
    expect(picker.multiple).toBe(true)
    let opened = 0
    picker.click = () => void opened++
    const attach = root.querySelector<HTMLButtonElement>('button.attach')!
    expect(attach.getAttribute('aria-label')).toBe('Attach files')
    attach.click()
    expect(opened).toBe(1)

    choose(root, [
      file('a.png', 'image/png'),
      file('huge.pdf', 'application/pdf', 10 * 1024 * 1024 + 1),
      file('evil.html', 'text/html'),
      ...['b', 'c', 'd', 'e', 'f'].map((n) => file(`${n}.txt`, 'text/plain')),
    ])
    expect(chipNames(root)).toEqual(['a.png', 'b.txt', 'c.txt', 'd.txt', 'e.txt'])
    const alert = alertOf(root)
    expect(alert.hidden).toBe(false)
    expect(alert.textContent).toBe(
      'huge.pdf is too big to send: the limit is 10.0 MB. ' +
        'evil.html cannot be sent: only images (PNG, JPEG, GIF, WebP), PDFs and text files can. ' +
        'Höchstens 5 Dateien.',
    )
    await poll(() => live(root) === '5 files attached', 'the announcement')

    // Removing a chip from the keyboard: focus goes to the next chip's button, the last one's to the box.
    const removes = () => [...root.querySelectorAll<HTMLButtonElement>('.chip .remove')]
    expect(removes()[0]!.getAttribute('aria-label')).toBe('Remove a.png')
    removes()[3]!.focus()
    removes()[3]!.click()
    expect(chipNames(root)).toEqual(['a.png', 'b.txt', 'c.txt', 'e.txt'])
    expect(root.activeElement).toBe(removes()[3])
    removes()[3]!.click()
    expect(root.activeElement).toBe(removes()[2])
    for (const b of removes().reverse()) {
      b.focus()
      b.click()
    }
    expect(chipNames(root)).toEqual([])
    expect(root.activeElement).toBe(root.querySelector('textarea'))
  })

  it('a file whose name is too long for the service is refused as it is chosen, said, never a chip', async () => {
    const { emu, desk } = await customer()
    const el = mount(desk)
    const root = await newConversation(el)
    choose(root, [file(`${'x'.repeat(296)}.txt`, 'text/plain'), file('ok.txt', 'text/plain')])
    expect(chipNames(root)).toEqual(['ok.txt'])
    expect(alertOf(root).textContent).toBe(el.strings.fileNameTooLong(255))
    expect(emu.log.some((l) => l.path.startsWith('/support/v1/uploads'))).toBe(false)
  })

  it('a conversation started with a file and no text: the file is on the service, shown as a download link', async () => {
    const { emu, desk } = await customer()
    const el = mount(desk)
    const root = await newConversation(el)
    choose(root, [file('notes.txt', 'text/plain', 1500)])
    key(root.querySelector('textarea')!, 'Enter')
    await poll(() => root.querySelector('.msg.mine .files a') !== null, 'the sent file in the thread')
    const link = root.querySelector<HTMLAnchorElement>('.msg.mine .files a')!
    expect(link.textContent).toBe('notes.txt1 KB')
    expect(link.querySelector('.size')!.textContent).toBe('1 KB')
    expect(chipNames(root)).toEqual([])
    const id = new URL(link.href).pathname.split('/').pop()!
    expect(emu.uploads.get(id)).toMatchObject({ name: 'notes.txt', type: 'text/plain', size: 1500, complete: true })
    expect(emu.uploads.get(id)!.attachedTo).not.toBeNull()
    const got = await fetch(link.href)
    expect(got.status).toBe(200)
    expect((await got.arrayBuffer()).byteLength).toBe(1500)
  })

  it('a pasted screenshot and dropped files become chips; a wrong type dropped is said', async () => {
    const { desk } = await customer()
    const el = mount(desk)
    const root = await newConversation(el)
    const text = root.querySelector('textarea')!
    const paste = new Event('paste', { bubbles: true, cancelable: true })
    Object.defineProperty(paste, 'clipboardData', {
      value: { files: [file('image.png', 'image/png')], types: ['Files'] },
    })
    text.dispatchEvent(paste)
    expect(paste.defaultPrevented).toBe(true)
    expect(chipNames(root)).toEqual(['image.png'])

    const view = root.querySelector<HTMLElement>('.view.thread')!
    const drop = new Event('drop', { bubbles: true, cancelable: true })
    Object.defineProperty(drop, 'dataTransfer', {
      value: {
        files: [file('report.pdf', 'application/pdf'), file('run.exe', 'application/x-msdownload')],
        types: ['Files'],
      },
    })
    view.dispatchEvent(drop)
    expect(drop.defaultPrevented).toBe(true)
    expect(chipNames(root)).toEqual(['image.png', 'report.pdf'])
    expect(alertOf(root).textContent).toBe(el.strings.fileWrongType('run.exe'))
  })

  it('refused by the service (quota, failure): said, with the text and the files kept', async () => {
    const { emu, desk } = await customer()
    const el = mount(desk)
    el.strings = { fileQuota: 'Kein Platz mehr.' }
    const root = await newConversation(el)
    const text = root.querySelector('textarea')!
    choose(root, [file('a.txt', 'text/plain')])
    type(text, 'See the file')
    // Queued many times over: the customer's typing (its stop may go at the end of its window)
    // takes faults too, and the upload's creation must meet one (a single fault went to typing once).
    emu.faults.failNext(50, { service: 'support', status: 413, code: 'upload_quota_exceeded' })
    key(text, 'Enter')
    const alert = alertOf(root)
    await poll(() => !alert.hidden, 'the refusal')
    expect(alert.textContent).toBe('Kein Platz mehr.')
    expect(text.value).toBe('See the file')
    expect(chipNames(root)).toEqual(['a.txt'])

    emu.faults.clear()
    emu.faults.failNext(50, { service: 'support', status: 500, code: 'internal' })
    key(text, 'Enter')
    await poll(() => alert.textContent === el.strings.fileFailed, 'the failure')
    expect(chipNames(root)).toEqual(['a.txt'])
  })

  it('progress while the files go up, and Cancel: the upload is gone from the service, the message kept', async () => {
    const { emu, desk } = await customer()
    const el = mount(desk)
    const root = await newConversation(el)
    const text = root.querySelector('textarea')!
    choose(root, [file('big.txt', 'text/plain', 3 * 512 * 1024)])
    type(text, 'A big one')
    // Each request held 2 s: Cancel lands while the bytes go, however slow a busy machine is
    // between seeing the upload created and the click (at 300 ms the three PATCHes once finished first).
    emu.faults.latency(2_000, { service: 'support', count: 20 })
    key(text, 'Enter')
    await poll(() => root.querySelector('.sending:not([hidden]) progress') !== null, 'the progress bar')
    const bar = root.querySelector<HTMLProgressElement>('.sending progress')!
    expect(bar.getAttribute('aria-label')).toBe('Sending files')
    expect(bar.max).toBe(3 * 512 * 1024)
    const cancel = root.querySelector<HTMLButtonElement>('.sending button')!
    expect(cancel.textContent).toBe('Cancel')
    // Once the service holds the upload (its bytes on their way), so Cancel has something to delete.
    const created = () =>
      emu.log.some((l) => l.method === 'POST' && l.path === '/support/v1/uploads' && l.status === 201)
    await poll(created, 'the upload created')
    cancel.focus()
    cancel.click()
    const alert = alertOf(root)
    await poll(() => !alert.hidden, 'the cancellation said')
    expect(alert.textContent).toBe('Sending cancelled. Your message is kept.')
    expect(root.querySelector<HTMLElement>('.sending')!.hidden).toBe(true)
    expect(root.activeElement).toBe(text) // the Cancel button went: focus is in the box, not lost
    expect(text.value).toBe('A big one')
    expect(chipNames(root)).toEqual(['big.txt'])
    expect(root.querySelector('.msg')).toBeNull()
    // Cancel deleted the upload on the service (tus DELETE): it is gone, not merely left unattached.
    const deleted = () =>
      emu.log.find((l) => l.method === 'DELETE' && l.path.startsWith('/support/v1/uploads/') && l.status === 204)
    await poll(() => deleted() !== undefined, 'the upload deleted')
    expect(emu.uploads.get(deleted()!.path.split('/').pop()!)).toBeUndefined()
  })

  it('typing is told as the customer types, and stopped on blur and on send', async () => {
    const { desk } = await customer()
    const started = await desk.conversations.start({ text: 'Hello' })
    const said: [string, boolean][] = []
    const real = desk.conversations.typing.bind(desk.conversations)
    desk.conversations.typing = (id, on) => {
      said.push([id, on])
      real(id, on)
    }
    const el = mount(desk)
    launcherOf(el).click()
    await shown(el)
    const root = el.shadowRoot!
    await poll(() => root.querySelector('.list .item') !== null, 'the conversation in the list')
    root.querySelector<HTMLButtonElement>('.list .item')!.click()
    await poll(() => root.querySelector('textarea') !== null, 'the thread')
    const text = root.querySelector('textarea')!
    type(text, 'W')
    type(text, 'Wh')
    text.dispatchEvent(new Event('blur'))
    expect(said).toEqual([
      [started.id, true],
      [started.id, true],
      [started.id, false],
    ])
    type(text, 'When?')
    key(text, 'Enter')
    expect(said.slice(3)).toEqual([
      [started.id, true],
      [started.id, false],
    ])
    await poll(() => root.querySelectorAll('.msg.mine').length === 2, 'the message sent')
  })
})

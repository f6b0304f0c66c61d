// The composer against the emulator: a send that failed goes again with the same Idempotency-Key
// (the service makes one message of the two tries); the same refusal said twice is announced twice
// (the alert emptied, then the sentence in the next frame); typing without pause reaches the
// service as one request (the SDK's throttle, counted where the requests land).
import { describe, expect, it } from 'vitest'
import { during, poll, slack } from '../../../../test/utils/wait.js'
import { alertOf, choose, customer, key, launcherOf, mount, newConversation, shown, type } from './helpers.js'

/** The thread of `id` open in a new element; returns its shadow root once the thread is read. */
async function openThread(
  desk: Awaited<ReturnType<typeof customer>>['desk'],
  emu: Awaited<ReturnType<typeof customer>>['emu'],
) {
  const el = mount(desk)
  launcherOf(el).click()
  await shown(el)
  const root = el.shadowRoot!
  await poll(() => root.querySelector('.list .item') !== null, 'the conversation in the list')
  root.querySelector<HTMLButtonElement>('.list .item')!.click()
  await poll(() => root.querySelector('textarea') !== null && root.querySelector('.msg') !== null, 'the thread')
  // Marked read on open: that write is done before the test's own requests count.
  await poll(() => emu.log.some((l) => l.method === 'POST' && l.path.endsWith('/read')), 'the thread marked read')
  return root
}

describe('<tandem-messenger> composer: retry, alerts, typing', () => {
  it('a send whose answer was lost goes again with the same key: one message on the service', async () => {
    const { emu, desk } = await customer()
    const started = await desk.conversations.start({ text: 'Hello' })
    const root = await openThread(desk, emu)
    const text = root.querySelector('textarea')!
    text.value = 'Once only' // no input event: no typing request before the send
    emu.faults.dropNext(1, { service: 'support', when: 'after' }) // applied, then the socket cut
    key(text, 'Enter')
    const alert = alertOf(root)
    await poll(() => !alert.hidden, 'the failure said')
    expect(text.value).toBe('Once only')
    key(text, 'Enter')
    await poll(() => text.value === '', 'the second try answered')
    const page = await desk.conversations.messages(started.id)
    expect(page.data.filter((m) => m.text === 'Once only')).toHaveLength(1)
  })

  it('the same refusal twice is a change the alert announces: emptied, then said again', async () => {
    const { desk } = await customer()
    const el = mount(desk)
    const root = await newConversation(el)
    const alert = alertOf(root)
    const seen: string[] = []
    new MutationObserver(() => seen.push(alert.textContent ?? '')).observe(alert, {
      childList: true,
      characterData: true,
      subtree: true,
    })
    const wrong = () => new File(['x'], 'run.exe', { type: 'application/x-msdownload' })
    const sentence = el.strings.fileWrongType('run.exe')
    choose(root, [wrong()])
    await poll(() => seen.length === 1, 'the first refusal')
    choose(root, [wrong()])
    await poll(() => seen.at(-1) === sentence && seen.length >= 3, 'the second refusal')
    expect(seen).toEqual([sentence, '', sentence])
  })

  it('typing without a pause reaches the service once (the SDK throttles), not once per key', async () => {
    const { emu, desk } = await customer()
    await desk.conversations.start({ text: 'Hello' })
    const root = await openThread(desk, emu)
    const text = root.querySelector('textarea')!
    const typed = () => emu.log.filter((l) => l.method === 'POST' && l.path.endsWith('/typing')).length
    for (let i = 1; i <= 20; i++) type(text, 'x'.repeat(i))
    await poll(() => typed() >= 1, 'the typing request')
    await during(slack(200)) // any further request would land meanwhile (less than the 3 s idle pause)
    expect(typed()).toBe(1)
  })
})

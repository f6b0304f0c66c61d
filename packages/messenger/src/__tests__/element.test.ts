// <tandem-messenger> in happy-dom against the emulator over HTTP: the launcher and panel from the
// keyboard, the strings a page overrides, a refused send said in the composer, drafts kept, and
// the launcher base (@tandem/elements) it shares with <tandem-devtools>.
import { LauncherElement } from '@tandem/elements'
import { describe, expect, it } from 'vitest'
import { poll } from '../../../../test/utils/wait.js'
import { TandemMessengerElement } from '../element.js'
import { customer, key, launcherOf, mount, shown } from './helpers.js'

const button = (root: ShadowRoot, text: string) =>
  [...root.querySelectorAll('button')].find((b) => b.textContent === text)

/** Opens the panel from the launcher, starts a new conversation and returns its composer. */
async function composer(el: TandemMessengerElement): Promise<HTMLTextAreaElement> {
  launcherOf(el).click()
  await shown(el)
  const root = el.shadowRoot!
  await poll(() => button(root, 'New conversation') !== undefined, 'the list view')
  button(root, 'New conversation')!.click()
  await poll(() => root.querySelector('textarea') !== null, 'the composer')
  return root.querySelector('textarea')!
}

const type = (text: HTMLTextAreaElement, value: string) => {
  text.value = value
  text.dispatchEvent(new Event('input', { bubbles: true }))
}

describe('<tandem-messenger>', () => {
  it('opens from its focused launcher, Escape closes it and gives focus back; events and aria-expanded follow', async () => {
    const { desk } = await customer()
    const el = mount(desk)
    const root = el.shadowRoot!
    const launcher = launcherOf(el)
    const events: string[] = []
    el.addEventListener('tandem-open', () => events.push('open'))
    el.addEventListener('tandem-close', () => events.push('close'))
    let escapesOut = 0
    const onKey = (e: KeyboardEvent) => void (e.key === 'Escape' && escapesOut++)
    document.addEventListener('keydown', onKey)
    try {
      expect(launcher.textContent).toBe('Messages') // its accessible name: the icon is aria-hidden
      expect(launcher.getAttribute('aria-haspopup')).toBe('dialog')
      expect(launcher.getAttribute('aria-expanded')).toBe('false')
      launcher.focus()
      launcher.click() // what Enter or Space on a focused button does
      const dialog = await shown(el)
      expect(launcher.getAttribute('aria-expanded')).toBe('true')
      expect(events).toEqual(['open'])
      await poll(() => dialog.contains(root.activeElement), 'focus in the panel')

      key(root.activeElement!, 'Escape')
      expect(el.isOpen).toBe(false)
      expect(dialog.hidden).toBe(true)
      expect(launcher.getAttribute('aria-expanded')).toBe('false')
      expect(root.activeElement).toBe(launcher)
      expect(events).toEqual(['open', 'close'])
      expect(escapesOut).toBe(0) // the messenger's Escape stays the messenger's

      // Closed, Escape is the page's; the launcher opens it again, and the panel is the same one.
      key(launcher, 'Escape')
      expect(escapesOut).toBe(1)
      launcher.click()
      expect(await shown(el)).toBe(dialog)
      expect(events).toEqual(['open', 'close', 'open'])
    } finally {
      document.removeEventListener('keydown', onKey)
    }
  })

  it('refuses to open without a messenger, with a TypeError and nothing shown', async () => {
    const el = mount(null)
    await expect(el.open()).rejects.toThrow(TypeError)
    expect(el.isOpen).toBe(false)
    expect(el.shadowRoot!.querySelector('[role=dialog]')).toBeNull()
  })

  it('strings: a partial set overrides the launcher and the open panel, the rest stay English', async () => {
    const { desk } = await customer()
    const el = mount(desk)
    const root = el.shadowRoot!
    // A key of the wrong kind (a string where a function belongs) keeps the English one.
    el.strings = { launcherLabel: 'Nachrichten', close: 'Schließen', unread: 'ungelesen' as never }
    expect(launcherOf(el).textContent).toBe('Nachrichten')
    expect(el.strings.unread(2)).toBe('2 unread messages')
    expect(el.strings.title).toBe('Messages')

    launcherOf(el).click()
    const dialog = await shown(el)
    expect(root.querySelector('header button:last-child')!.getAttribute('aria-label')).toBe('Schließen')
    expect(dialog.getAttribute('aria-label')).toBe('Messages')

    // Set again while open: the panel renders the new words, and each set starts from English.
    el.strings = { title: 'Hilfe', conversationsTab: 'Unterhaltungen' }
    expect(dialog.getAttribute('aria-label')).toBe('Hilfe')
    expect(button(root, 'Unterhaltungen')).toBeDefined()
    expect(launcherOf(el).textContent).toBe('Messages')
  })

  it('a refused send: the composer says so in an alert, in the page’s words, and keeps the text', async () => {
    const { emu, desk } = await customer()
    const el = mount(desk)
    el.strings = { sendFailed: 'Nicht gesendet.' }
    const text = await composer(el)
    const alert = el.shadowRoot!.querySelector<HTMLElement>('.error[role=alert]')!
    expect(alert.hidden).toBe(true)

    // Every support request from here is refused: a list refetch must not take the send's refusal.
    emu.faults.failNext(50, { service: 'support', status: 403, code: 'forbidden' })
    type(text, 'Is my order on its way?')
    key(text, 'Enter')
    await poll(() => !alert.hidden, 'the alert')
    expect(alert.textContent).toBe('Nicht gesendet.')
    expect(text.value).toBe('Is my order on its way?')
  })

  it('drafts: what was typed is there in a new element (a reload of the tab), and shutdown() removes it', async () => {
    const { desk } = await customer()
    const first = mount(desk)
    type(await composer(first), 'Half a thought')
    first.remove()

    const second = mount(desk)
    expect((await composer(second)).value).toBe('Half a thought')
    second.remove()

    first.shutdown() // logout: every trace of the customer goes, drafts included
    const { desk: again } = await customer()
    expect((await composer(mount(again))).value).toBe('')
  })

  it('is built on the launcher base it shares with <tandem-devtools>', async () => {
    const { desk } = await customer()
    const el = mount(desk)
    expect(Object.getPrototypeOf(TandemMessengerElement)).toBe(LauncherElement)
    expect(el).toBeInstanceOf(LauncherElement)
  })
})

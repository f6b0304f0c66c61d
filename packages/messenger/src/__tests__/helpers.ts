// Shared test helpers: a real emulator on 127.0.0.1, a customer's messenger on it over HTTP, and
// `<tandem-messenger>` on the page for it; setup.ts closes all of it after each test.
import { createClient } from '@tandem/core'
import { messenger, type Messenger } from '@tandem/core/messenger'
import { startEmulator, type Emulator } from '@tandem/emulator'
import { poll } from '../../../../test/utils/wait.js'
import { defineMessenger } from '../define.js'
import type { TandemMessengerElement } from '../element.js'

const open: (() => unknown)[] = []
/** Closes what the helpers opened, newest first; after each test (setup.ts). */
export async function cleanupAll(): Promise<void> {
  for (const close of open.splice(0).reverse()) await close()
}

export interface Customer {
  emu: Emulator
  desk: Messenger
}

/** A customer's messenger (`support:customer`) on a new emulator. */
export async function customer(subject = 'cus_element'): Promise<Customer> {
  const emu = await startEmulator({ host: '127.0.0.1', port: 0 })
  open.push(() => emu.close())
  const client = createClient({
    baseUrl: emu.url,
    auth: {
      fetchToken: async () => ({
        token: await emu.mintToken({ subject, scope: ['support:customer'] }),
        expiresIn: 600,
      }),
    },
    retry: false,
  })
  const desk = messenger(client)
  open.push(() => desk.shutdown())
  return { emu, desk }
}

/** `<tandem-messenger>` on the page for `desk` (or none yet); removed after the test. */
export function mount(desk: Messenger | null): TandemMessengerElement {
  defineMessenger()
  const el = document.createElement('tandem-messenger')
  el.messenger = desk
  document.body.append(el)
  open.push(() => {
    el.shutdown()
    el.remove()
  })
  return el
}

/** The launcher button in the element's shadow root. */
export const launcherOf = (el: TandemMessengerElement): HTMLButtonElement =>
  el.shadowRoot!.querySelector<HTMLButtonElement>('button.launcher')!

/** The open panel's dialog, once it is shown. */
export async function shown(el: TandemMessengerElement): Promise<HTMLElement> {
  const dialog = () => el.shadowRoot!.querySelector<HTMLElement>('[role=dialog]')
  await poll(() => el.isOpen && dialog()?.hidden === false, 'the panel')
  return dialog()!
}

/** A key pressed on `el`, as the keyboard sends it (bubbling out of the shadow root). */
export const key = (el: Element, k: string): boolean =>
  el.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, composed: true, cancelable: true }))

export const button = (root: ShadowRoot, text: string) =>
  [...root.querySelectorAll('button')].find((b) => b.textContent === text)

/** Opens the panel and its "New conversation" composer; returns the shadow root. */
export async function newConversation(el: TandemMessengerElement): Promise<ShadowRoot> {
  launcherOf(el).click()
  await shown(el)
  const root = el.shadowRoot!
  await poll(() => button(root, 'New conversation') !== undefined, 'the list view')
  button(root, 'New conversation')!.click()
  await poll(() => root.querySelector('textarea') !== null, 'the composer')
  return root
}

/** What the file picker hands over when the customer chooses `files`. */
export function choose(root: ShadowRoot, files: File[]): void {
  const picker = root.querySelector<HTMLInputElement>('input[type=file]')!
  Object.defineProperty(picker, 'files', { value: files, configurable: true })
  picker.dispatchEvent(new Event('change', { bubbles: true }))
}

export const chipNames = (root: ShadowRoot) => [...root.querySelectorAll('.chip .name')].map((n) => n.textContent)
export const alertOf = (root: ShadowRoot) => root.querySelector<HTMLElement>('.error[role=alert]')!
export const live = (root: ShadowRoot) => root.querySelector('[aria-live=polite]')!.textContent

export const type = (text: HTMLTextAreaElement, value: string) => {
  text.value = value
  text.dispatchEvent(new Event('input', { bubbles: true }))
}

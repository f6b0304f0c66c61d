// The panel's "Notify me of replies" control: shown only for a page that gives the element a push
// controller, its words and button per state, enable() and disable() from the button's click, each
// change said in the live region, focus kept, and the page's strings. The controller here is a
// small store with the shape of @tandem/core/push's (its own tests cover the browser side); the
// messenger under it is a real one on the emulator.
import { createStore } from '@tandem/core'
import { describe, expect, it } from 'vitest'
import { poll } from '../../../../test/utils/wait.js'
import type { TandemMessengerElement } from '../element.js'
import type { MessengerPush } from '../panel-types.js'
import { customer, launcherOf, mount, shown } from './helpers.js'

type State = ReturnType<MessengerPush['getSnapshot']>

/** A push controller whose enable/disable record their calls and move to the state a test sets. */
function fakePush(status: State['status'] = 'default') {
  const store = createStore<State>({ status, reason: null })
  const calls: string[] = []
  let afterEnable: State = { status: 'subscribed', reason: null }
  const push: MessengerPush & { set(s: State): void; enableEndsIn(s: State): void; calls: string[] } = {
    getSnapshot: store.getSnapshot,
    subscribe: store.subscribe,
    set: (s) => store.set(s),
    enableEndsIn: (s) => void (afterEnable = s),
    calls,
    async enable() {
      calls.push('enable')
      store.set({ status: 'subscribing', reason: null })
      await Promise.resolve()
      store.set(afterEnable)
    },
    async disable() {
      calls.push('disable')
      store.set({ status: 'default', reason: null })
    },
  }
  return push
}

async function openList(el: TandemMessengerElement): Promise<ShadowRoot> {
  launcherOf(el).click()
  await shown(el)
  const root = el.shadowRoot!
  await poll(() => root.querySelector('.view') !== null, 'the list view')
  return root
}

const control = (root: ShadowRoot) => root.querySelector<HTMLElement>('.push')
const pushButton = (root: ShadowRoot) => control(root)!.querySelector('button')!
const pushNote = (root: ShadowRoot) => control(root)!.querySelector<HTMLElement>('.note')!
const live = (root: ShadowRoot) => root.querySelector<HTMLElement>('[aria-live]')!

describe('<tandem-messenger> push control', () => {
  it('without a push controller: nothing of it in the panel', async () => {
    const { desk } = await customer('cus_push_none')
    const root = await openList(mount(desk))
    expect(control(root)?.hidden ?? true).toBe(true)
    const visible = [...root.querySelectorAll('button')].filter((b) => !b.closest('[hidden]'))
    expect(visible.map((b) => b.textContent)).not.toContain('Notify me of replies')
  })

  it('a `push` that is not a controller is none: the setter, the open panel and shutdown() never throw', async () => {
    const { desk } = await customer('cus_push_bad')
    const el = mount(desk)
    const root = await openList(el)
    for (const bad of [{}, () => {}, { enable: 1 }, 'push'])
      expect(() => (el.push = bad as unknown as MessengerPush)).not.toThrow()
    expect(el.push).toBeNull()
    expect(control(root)?.hidden ?? true).toBe(true)
    expect(() => el.shutdown()).not.toThrow()
  })

  it('default → subscribing → subscribed from the click, focus kept, each change announced; Turn off disables', async () => {
    const { desk } = await customer('cus_push_on')
    const el = mount(desk)
    const push = fakePush()
    el.push = push
    const root = await openList(el)
    const button = pushButton(root)
    expect(control(root)!.hidden).toBe(false)
    expect(button.hidden).toBe(false)
    expect(button.textContent).toBe('Notify me of replies')
    expect(pushNote(root).hidden).toBe(true)

    button.focus()
    button.click()
    expect(push.calls).toEqual(['enable'])
    // Busy: the same button, still focused, says so and is marked disabled (not removed from focus).
    expect(button.getAttribute('aria-disabled')).toBe('true')
    expect(pushNote(root).textContent).toBe('Turning notifications on…')
    button.click() // a second click while busy asks nothing
    expect(push.calls).toEqual(['enable'])

    await poll(() => push.getSnapshot().status === 'subscribed', 'subscribed')
    expect(pushNote(root).textContent).toBe('Notifications on')
    expect(button.textContent).toBe('Turn off')
    expect(button.hasAttribute('aria-disabled')).toBe(false)
    expect(root.activeElement).toBe(button)
    await poll(() => live(root).textContent === 'Notifications on', 'the announcement')

    button.click()
    expect(push.calls).toEqual(['enable', 'disable'])
    await poll(() => button.textContent === 'Notify me of replies', 'back to default')
    await poll(() => live(root).textContent === 'Notifications off', 'the announcement')
  })

  it('denied: the sentence, no button, focus on the sentence; error: the reason in a sentence and the button again', async () => {
    const { desk } = await customer('cus_push_denied')
    const el = mount(desk)
    const push = fakePush()
    push.enableEndsIn({ status: 'denied', reason: 'permission_denied' })
    el.push = push
    const root = await openList(el)
    pushButton(root).focus()
    pushButton(root).click()
    await poll(() => push.getSnapshot().status === 'denied', 'denied')
    expect(pushNote(root).textContent).toBe('Notifications are blocked in your browser settings.')
    expect(pushButton(root).hidden).toBe(true)
    expect(root.activeElement).toBe(pushNote(root))
    await poll(() => live(root).textContent === 'Notifications are blocked in your browser settings.', 'announced')

    push.set({ status: 'error', reason: 'push_service_unavailable' })
    expect(pushNote(root).textContent).toBe(
      'Notifications could not be turned on (push service unavailable). Try again.',
    )
    expect(pushButton(root).hidden).toBe(false)
    expect(pushButton(root).textContent).toBe('Notify me of replies')
    pushButton(root).click()
    expect(push.calls).toEqual(['enable', 'enable'])
  })

  it('unsupported: hidden; a controller set while the panel is open shows the control', async () => {
    const { desk } = await customer('cus_push_late')
    const el = mount(desk)
    el.push = fakePush('unsupported')
    const root = await openList(el)
    expect(control(root)!.hidden).toBe(true)
    el.push = fakePush('subscribed')
    expect(control(root)!.hidden).toBe(false)
    expect(pushNote(root).textContent).toBe('Notifications on')
  })

  it('strings: the page’s words for every state, the failure sentence a function of the reason', async () => {
    const { desk } = await customer('cus_push_strings')
    const el = mount(desk)
    const push = fakePush()
    el.push = push
    el.strings = {
      pushEnable: 'Benachrichtige mich',
      pushOn: 'Benachrichtigungen an',
      pushDisable: 'Ausschalten',
      pushDenied: 'Im Browser blockiert.',
      pushFailed: (reason) => `Fehler: ${reason}`,
    }
    const root = await openList(el)
    expect(pushButton(root).textContent).toBe('Benachrichtige mich')
    push.set({ status: 'subscribed', reason: null })
    expect(pushNote(root).textContent).toBe('Benachrichtigungen an')
    expect(pushButton(root).textContent).toBe('Ausschalten')
    push.set({ status: 'denied', reason: null })
    expect(pushNote(root).textContent).toBe('Im Browser blockiert.')
    push.set({ status: 'error', reason: 'no_user_gesture' })
    expect(pushNote(root).textContent).toBe('Fehler: no_user_gesture')
  })

  it('shutdown() (a logout) disables push and lets go of the controller', async () => {
    const { desk } = await customer('cus_push_logout')
    const el = mount(desk)
    const push = fakePush('subscribed')
    el.push = push
    el.shutdown()
    expect(push.calls).toEqual(['disable'])
    expect(el.push).toBeNull()
  })
})

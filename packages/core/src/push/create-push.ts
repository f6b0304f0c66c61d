import { PUSH, PUSH_URL } from '@tandem/contract'
import { DEV } from '@tandem/contract/dev'
import { asTandemError } from '../as-tandem-error.js'
import { httpOf, type RequestClient } from '../client-request.js'
import { ValidationError, type TandemError } from '../errors.js'
import { createStore } from '../store.js'
import { onCleared } from '../persist/tab-channel.js'
import {
  fromBase64Url,
  lacks,
  madeWith,
  permission,
  requestPermission,
  subscriptionOf,
  userGesture,
  watchPermission,
  watchRenewal,
} from './browser.js'
import { initialPushState, transition, type PushEffect, type PushEvent, type PushPhase } from './push-machine.js'
import { localPayload } from './local-payload.js'
import { createPushService } from './push-service.js'
import type { PushController, PushOptions, PushState } from './types.js'

// The runner of push-machine.ts, its one writer: it carries out the effects against the browser
// (permission, PushManager) and the service (through the client's pipeline), and feeds the outcomes in.

/** Phases after which `enable()` answers (the prompt, the subscription, its registration are over). */
const SUBSCRIBING: PushPhase[] = ['asking', 'subscribing', 'registering']

const why = (text: string) => DEV && process.env.NODE_ENV !== 'production' && text

/** A store listener's error goes to the page's `reportError` (`onerror`), or is thrown on a microtask (as events.ts). */
function heard(listener: () => void): void {
  try {
    listener()
  } catch (error) {
    if (typeof reportError === 'function') reportError(error)
    else
      queueMicrotask(() => {
        throw error
      })
  }
}

function checkOptions(options: PushOptions): void {
  if (typeof options !== 'object' || options === null) throw new ValidationError('options', why('must be an object'))
  const { mailboxIds, url } = options
  if (
    mailboxIds !== undefined &&
    (!Array.isArray(mailboxIds) ||
      mailboxIds.length > PUSH.mailboxIds ||
      !mailboxIds.every((id) => typeof id === 'string' && id !== ''))
  )
    throw new ValidationError('mailboxIds', why(`must be at most ${PUSH.mailboxIds} mailbox ids`))
  if (url !== undefined && (typeof url !== 'string' || url.length > PUSH.endpointChars || !PUSH_URL.test(url)))
    throw new ValidationError('url', why('must be an absolute https: URL (http: on a loopback host)'))
}

/**
 * Web Push for the client's subject (`@tandem/core/push`): `enable()` from a click asks the
 * permission, subscribes this browser with the service's key and registers the subscription; the
 * service then pushes messages to it while none of the subject's tabs is open (docs/push.md). It
 * keeps the subscription current (a renewed one registered again, a revoked permission removes it)
 * and removes it on `disable()`, on the key's `clearPersisted()` and when `signal` aborts.
 *
 * @example
 * ```ts
 * const push = createPush(client, { serviceWorker: navigator.serviceWorker.ready, key: 'acme' })
 * button.onclick = () => push.enable()
 * push.subscribe(() => (button.hidden = push.getSnapshot().status === 'subscribed'))
 * ```
 */
export function createPush(client: RequestClient, options: PushOptions): PushController {
  const service = createPushService(httpOf(client))
  checkOptions(options)
  const { mailboxIds, url, hiddenTab = false } = options
  let state = initialPushState()
  const store = createStore<PushState>(state.snapshot)
  const waiters = new Set<{ done: (phase: PushPhase) => boolean; resolve: () => void }>()
  const offs: (() => void)[] = []
  /** The key request of the subscribe attempt: aborted when a later effect replaces it. */
  let attempt = new AbortController()
  /** Aborted by stop() only: a registration under way when it is removed ends, and is then removed (a late `registered`). */
  const closed = new AbortController()
  /** Browser and service effects, one after another: a removal follows the subscription it removes. */
  let queue = Promise.resolve()

  let registration: Promise<ServiceWorkerRegistration> | undefined
  const worker = () => (registration ??= Promise.resolve(options.serviceWorker))

  // The store's listeners are told last (a listener that calls enable() or disable() acts after this
  // transition's effects), and one that throws cannot stop the runner: see `heard`.
  function dispatch(event: PushEvent): void {
    const result = transition(state, event)
    state = result.state
    result.effects.forEach(run)
    for (const w of waiters)
      if (w.done(state.phase)) {
        waiters.delete(w)
        w.resolve()
      }
    store.set(state.snapshot)
  }

  /** Resolves once the phase is one `done` accepts (at once when it is). */
  const until = (done: (phase: PushPhase) => boolean) =>
    new Promise<void>((resolve) => (done(state.phase) ? resolve() : waiters.add({ done, resolve })))

  const later = (work: () => Promise<void>) => void (queue = queue.then(work, work))
  const fail = (n: number, reason: 'bad_key' | 'register_failed' | 'subscribe_failed', error: TandemError) =>
    dispatch({ type: 'failed', attempt: n, reason, error })

  function run(effect: PushEffect): void {
    switch (effect.type) {
      case 'ask':
        // Now, within the click: a user activation does not outlive it.
        void requestPermission().then((p) => dispatch({ type: 'answered', permission: p }))
        return
      case 'subscribe': {
        attempt.abort()
        attempt = new AbortController()
        const { signal } = attempt // this attempt's, not the one current when the queue reaches it
        return later(() => subscribe(effect, signal))
      }
      case 'register': {
        const { signal } = closed
        const body = { ...effect.subscription, ...(mailboxIds && { mailboxIds }), ...(url && { url }) }
        return later(() =>
          service.register(body, signal).then(
            (record) => dispatch({ type: 'registered', attempt: effect.attempt, id: record.id }),
            (e: unknown) => fail(effect.attempt, 'register_failed', asTandemError(e, 'push_register_failed')),
          ),
        )
      }
      case 'remove':
        attempt.abort()
        return later(() => remove(effect.id))
      case 'close':
        attempt.abort()
        closed.abort()
        offs.splice(0).forEach((off) => off())
        for (const w of waiters) w.resolve()
        waiters.clear()
    }
  }

  /** The browser's subscription with the service's current key: one made with another key is replaced. */
  async function subscribe(effect: PushEffect & { type: 'subscribe' }, signal: AbortSignal): Promise<void> {
    const { attempt: n, existingOnly, listed } = effect
    if (signal.aborted) return
    let key: Uint8Array<ArrayBuffer>
    let found: PushSubscription | null
    let manager: PushManager
    try {
      manager = (await worker()).pushManager
      found = await manager.getSubscription()
    } catch (e) {
      return fail(n, 'subscribe_failed', asTandemError(e, 'push_subscribe_failed'))
    }
    try {
      // Another subject's (the browser's one subscription is every user's of this profile): not ours.
      if (found && listed && !(await service.list(signal)).some((r) => r.endpoint === found!.endpoint)) found = null
    } catch (e) {
      return fail(n, 'register_failed', asTandemError(e, 'push_list_failed'))
    }
    if (!found && existingOnly) return dispatch({ type: 'absent', attempt: n })
    try {
      key = fromBase64Url(await service.key(signal))
    } catch (e) {
      const error = asTandemError(e, 'push_key_failed')
      return fail(n, error.code === 'bad_response' ? 'bad_key' : 'register_failed', error)
    }
    try {
      if (found && !madeWith(found, key)) {
        // The service's key changed (or the subscription is another app's on this origin): a new one.
        await found.unsubscribe().catch(() => false)
        found = null
      }
      found ??= await manager.subscribe({ userVisibleOnly: true, applicationServerKey: key })
    } catch (e) {
      return fail(n, 'subscribe_failed', asTandemError(e, 'push_subscribe_failed'))
    }
    const subscription = subscriptionOf(found)
    if (!subscription)
      return fail(n, 'subscribe_failed', new ValidationError('subscription', why('the browser gave a malformed one')))
    dispatch({ type: 'subscribed', attempt: n, subscription })
  }

  /**
   * Best effort: this subject's record first (found by the browser's endpoint when this page never
   * learnt its id, e.g. a logout during the start-up read), then the browser's unsubscribe: the one
   * subscription of this browser profile, so every other subject's record of it then answers 410.
   */
  async function remove(id: string | null): Promise<void> {
    const found = await worker()
      .then((r) => r.pushManager.getSubscription())
      .catch(() => null)
    const own = id ?? (found && (await service.list().catch(() => [])).find((r) => r.endpoint === found.endpoint)?.id)
    if (own) await service.remove(own).catch(() => {})
    await found?.unsubscribe().catch(() => false)
    dispatch({ type: 'removed' })
  }

  const missing = lacks()
  // No service worker after all (a development build): push cannot work in this page. Caught even
  // where push is unsupported anyway: a rejected `serviceWorker` is never left unhandled.
  worker().catch(() => dispatch({ type: 'unavailable', lacks: 'no_service_worker' }))
  if (!missing) {
    if (!options.serviceWorker || typeof options.serviceWorker !== 'object')
      throw new ValidationError('serviceWorker', why('must be a ServiceWorkerRegistration or a promise of one'))
    offs.push(
      watchPermission((p) => dispatch({ type: 'permission', permission: p })),
      watchRenewal(() => dispatch({ type: 'renewed' })),
    )
    if (options.key !== undefined) {
      const channel = onCleared(options.key, () => dispatch({ type: 'cleared' }), options.BroadcastChannel)
      offs.push(() => channel.close())
    }
  }
  dispatch({ type: 'start', lacks: missing, permission: missing ? 'default' : permission() })
  const { signal } = options
  if (signal) {
    const end = () => (dispatch({ type: 'cleared' }), dispatch({ type: 'stop' }))
    if (signal.aborted) end()
    else {
      signal.addEventListener('abort', end, { once: true })
      offs.push(() => signal.removeEventListener('abort', end))
    }
  }

  return {
    getSnapshot: store.getSnapshot,
    // `heard`: a listener that throws is reported, never thrown into the runner, and the others still hear.
    subscribe: (listener) => store.subscribe(() => heard(listener)),
    async enable() {
      dispatch({ type: 'enable', gesture: userGesture() })
      // A click during a removal subscribes again when it ends (push-machine.ts, `removed`).
      await until((phase) => !SUBSCRIBING.includes(phase) && !(phase === 'removing' && state.wanted))
      return state.snapshot
    },
    async disable() {
      dispatch({ type: 'disable' })
      await until((phase) => !SUBSCRIBING.includes(phase) && phase !== 'removing')
    },
    async showIfHidden(message) {
      if (!hiddenTab || globalThis.document?.visibilityState !== 'hidden' || permission() !== 'granted') return false
      const payload = localPayload(message, url)
      if (!payload) return false
      try {
        await (
          await worker()
        ).showNotification(payload.title, {
          body: payload.body,
          tag: payload.conversationId,
          data: { tandem: payload },
        })
        return true
      } catch {
        return false
      }
    },
    stop: () => dispatch({ type: 'stop' }),
  }
}

/** `push.disable()`: unsubscribes this browser and removes the subscription on the service. */
export const disablePush = (push: PushController): Promise<void> => push.disable()

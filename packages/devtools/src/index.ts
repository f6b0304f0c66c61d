// @tandem/devtools: see inside a Tandem app. Costs 0 bytes in production: each function checks
// `process.env.NODE_ENV` itself, which bundlers replace with a constant, so in a production build
// the check folds to "do nothing" and the element's module, reached only through the dynamic
// import() behind it, is dropped with it (TanStack's devtools do the same). `=== 'production'`
// alone switches it off: tests and development builds count as development. A page without a
// bundler has no `process`: there it is off, as in production; `@tandem/devtools/production`
// gives the real thing in any build. The recorder is imported statically (it must start at once,
// before any chunk could load) but used only inside the checks, so it is tree-shaken with them.
import { emulatorActions as actionsForEmulator, type EmulatorActionsOptions } from './emulator-actions.js'
import { createDevtoolsRecorder as createRecorder } from './recorder.js'
import type {
  DevtoolsActions,
  DevtoolsOptions,
  DevtoolsRecorder,
  DevtoolsRecorderOptions,
  DevtoolsSources,
} from './types.js'

export type { EmulatorActionsOptions } from './emulator-actions.js'
export type { TandemDevtoolsElement } from './element.js'
export type { DevtoolsStrings } from './strings.js'
export type * from './types.js'

/**
 * Starts recording these sources at once (unless `options.recorder` is given) and appends a
 * `<tandem-devtools>` showing them to `document.body` (its module loads first, so it appears a
 * moment later, with what happened meanwhile); returns what removes it (and stops the recorder it
 * made). In production, nothing: no element, no import, no recorder.
 *
 * @example
 * ```ts
 * const unmount = mountDevtools({ client, realtime })
 * ```
 */
export function mountDevtools(options: DevtoolsOptions = {}): () => void {
  try {
    return mountInDevelopment(options)
  } catch (error) {
    return offWithoutBundler(error, () => {})
  }
}

/**
 * Registers `<tandem-devtools>` (or `tagName`) and resolves with its class; in production,
 * registers nothing and resolves with undefined.
 */
export function defineDevtools(tagName?: string): Promise<CustomElementConstructor | undefined> {
  try {
    return defineInDevelopment(tagName)
  } catch (error) {
    return offWithoutBundler(error, Promise.resolve(undefined))
  }
}

/**
 * Starts recording the sources' events now, for devtools mounted later (`recorder` option): made
 * before the app's first request, the panel shows the page from its start. In production,
 * undefined, and the recorder's code is not in the bundle.
 *
 * @example
 * ```ts
 * const recorder = createDevtoolsRecorder({ client, realtime })
 * mountDevtools({ client, realtime, recorder })
 * ```
 */
export function createDevtoolsRecorder(
  sources: DevtoolsSources,
  options?: DevtoolsRecorderOptions,
): DevtoolsRecorder | undefined {
  let create: typeof createRecorder | undefined
  try {
    create = recorderInDevelopment()
  } catch (error) {
    create = offWithoutBundler(error, undefined)
  }
  // Called outside the `try`: a ReferenceError of the recorder's own is a bug, not "no bundler".
  return create?.(sources, options)
}

/** The Actions toolbar against the emulator's dev controls (`{base}/drop`, `{base}/expire`); in production, none. */
export function emulatorActions(options: EmulatorActionsOptions): DevtoolsActions {
  try {
    return actionsInDevelopment(options)
  } catch (error) {
    return offWithoutBundler(error, {})
  }
}

// Each check is a plain `if` at the top of the function that holds the import: bundlers fold it at
// parse time, so the import is never seen (a `try` around the `if` would keep it: esbuild then
// still emits the chunk, unused). The callers' `try` is for a page without a bundler alone.

function mountInDevelopment(options: DevtoolsOptions): () => void {
  if (process.env.NODE_ENV !== 'production') {
    // Recording starts now, not when the element's chunk has loaded: the first requests and the
    // connection's first states happen meanwhile.
    const own = options.recorder ? undefined : createRecorder(options)
    const recorder = options.recorder ?? own
    let unmount: (() => void) | undefined
    let gone = false
    void import('./production.js').then((m) => {
      if (!gone) unmount = m.mountDevtools({ ...options, recorder })
    })
    return () => {
      gone = true
      unmount?.()
      own?.stop()
    }
  }
  return () => {}
}

function recorderInDevelopment(): typeof createRecorder | undefined {
  if (process.env.NODE_ENV !== 'production') return createRecorder
  return undefined
}

function defineInDevelopment(tagName: string | undefined): Promise<CustomElementConstructor | undefined> {
  if (process.env.NODE_ENV !== 'production') return import('./production.js').then((m) => m.defineDevtools(tagName))
  return Promise.resolve(undefined)
}

function actionsInDevelopment(options: EmulatorActionsOptions): DevtoolsActions {
  if (process.env.NODE_ENV !== 'production') return actionsForEmulator(options)
  return {}
}

/** `process` is not defined: a page without a bundler, where the devtools are off. Anything else is a bug: thrown. */
function offWithoutBundler<T>(error: unknown, off: T): T {
  if (error instanceof ReferenceError) return off
  throw error
}

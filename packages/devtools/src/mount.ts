// `mountDevtools(options)` in any build: the element, its properties set, appended to the body.
import { DEFAULTS } from './defaults.js'
import { defineDevtools } from './define.js'
import type { TandemDevtoolsElement } from './element.js'
import type { DevtoolsOptions } from './types.js'

const PROPERTIES = ['client', 'realtime', 'tabs', 'outbox', 'persister', 'recorder', 'actions', 'strings'] as const

/** Sets the options' properties on the element (those given; undefined ones are left as they are). */
export function assignOptions(el: TandemDevtoolsElement, options: DevtoolsOptions): void {
  for (const key of PROPERTIES) if (options[key] !== undefined) Object.assign(el, { [key]: options[key] })
}

/** Appends a `<tandem-devtools>` for these sources to `document.body`; returns what removes it. */
export function mountDevtools(options: DevtoolsOptions = {}): () => void {
  defineDevtools()
  const el = document.createElement(DEFAULTS.tagName)
  assignOptions(el, options)
  document.body.append(el)
  return () => el.remove()
}

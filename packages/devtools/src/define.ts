// The only place the element is registered: importing the package defines nothing
// (`sideEffects: false`), so a bundler may drop it from a page that never calls this.
import { DEFAULTS } from './defaults.js'
import { TandemDevtoolsElement } from './element.js'

/**
 * Registers `<tandem-devtools>` (or `tagName`, a valid custom element name) and returns its
 * class, in any build. Idempotent: a name already registered returns what it holds. Browsers only.
 */
export function defineDevtools(tagName: string = DEFAULTS.tagName): CustomElementConstructor {
  const registry = globalThis.customElements
  if (!registry) throw new TypeError('defineDevtools() needs a browser: customElements is undefined here')
  const existing = registry.get(tagName)
  if (existing) return existing
  // A class may be registered under one name only: each name gets a subclass of its own.
  const named = tagName === DEFAULTS.tagName ? TandemDevtoolsElement : class extends TandemDevtoolsElement {}
  registry.define(tagName, named)
  return named
}

// @tandem/elements: what Tandem's custom elements are built from (@tandem/messenger,
// @tandem/devtools). Browsers only, kept out of @tandem/core, which runs on servers too.
// Apps use those packages; the members of LauncherElement are part of their elements' API.
export { h, icon, sheet, LAUNCHER_CSS } from './dom.js'
export type { Attrs } from './dom.js'
export { LauncherElement, once } from './launcher-element.js'
export type { LauncherOptions, LauncherPanel } from './launcher-element.js'
export { mergeStrings } from './strings.js'

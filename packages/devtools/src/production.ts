// @tandem/devtools/production: the devtools in any build, production included (a staging site,
// a page without a bundler). `@tandem/devtools` is the same API behind a NODE_ENV switch.
export { defineDevtools } from './define.js'
export { mountDevtools } from './mount.js'
export { emulatorActions, type EmulatorActionsOptions } from './emulator-actions.js'
export { createDevtoolsRecorder } from './recorder.js'
export { TandemDevtoolsElement } from './element.js'
export { DEFAULT_STRINGS, type DevtoolsStrings } from './strings.js'
export { DEFAULTS as DEVTOOLS_DEFAULTS } from './defaults.js'
export type * from './types.js'

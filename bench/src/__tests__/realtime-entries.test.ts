// Presence, the public history, the debug log and watchFrames are entries of their own
// (@tandem/realtime/presence, /history, /debug): an app that only imports createRealtime ships none
// of them. Read from esbuild's list of the modules in the bundle, so it fails the day channel.ts
// (or realtime.ts) imports one of them again.
import { describe, expect, it } from 'vitest'
// @ts-expect-error: plain ESM module without types; the bench and this test share its entries.
import { measure } from '../bundle.mjs'

const OPTIONS = { conditions: ['@tandem/source'] }
const PRESENCE = [
  'realtime/src/presence/presence.ts',
  'realtime/src/presence/presence-store.ts',
  'realtime/src/presence/presence-table.ts',
]
const HISTORY = ['realtime/src/history.ts', 'realtime/src/messages/history-options.ts']
// The debug lines, watchFrames (issue 31) and the redaction both go through (core's redact.ts).
const DEBUG = ['realtime/src/debug.ts', 'realtime/src/debug/watch-frames.ts', 'core/src/redact.ts']

const modulesOf = async (source: string): Promise<string[]> =>
  ((await measure(source, OPTIONS)) as { modules: [string, number][] }).modules.map(([name]) => name)

describe('realtime entries', () => {
  it('createRealtime alone bundles neither presence, the public history nor a logger (the gap fill stays)', async () => {
    const modules = await modulesOf(`export { createRealtime } from '@tandem/realtime'`)
    expect(modules).toContain('realtime/src/channels/channel.ts')
    expect(modules).toContain('realtime/src/channels/held.ts') // the live-data guarantee reads history itself
    expect(modules).toContain('realtime/src/parts.ts') // watchFrames' way in: the client's parts, under a symbol
    for (const name of [...PRESENCE, ...HISTORY, ...DEBUG]) expect(modules, name).not.toContain(name)
  })

  it('each entry brings its own part, and only it', async () => {
    const presence = await modulesOf(`export { presence, presenceStore } from '@tandem/realtime/presence'`)
    for (const name of PRESENCE) expect(presence, name).toContain(name)
    for (const name of HISTORY) expect(presence, name).not.toContain(name)
    const history = await modulesOf(`export { history } from '@tandem/realtime/history'`)
    for (const name of HISTORY) expect(history, name).toContain(name)
    for (const name of PRESENCE) expect(history, name).not.toContain(name)
    const debug = await modulesOf(
      `export { createRealtime } from '@tandem/realtime'; export { debugLog, watchFrames } from '@tandem/realtime/debug'`,
    )
    for (const name of DEBUG) expect(debug, name).toContain(name)
  })

  // A default derived at module level from another package's value (a field of an import) stays
  // wherever its file is bundled: each such default has a file of its own, with its only reader.
  it("createRealtime alone keeps no resource presence pacing (DEFAULTS' resourcePresence, the contract's PRESENCE_RATE)", async () => {
    const code = await codeOf(`export { createRealtime } from '@tandem/realtime'`)
    expect(code).toContain('heartbeat_timeout') // the realtime client is there
    expect(code).not.toContain('typingIdleMs')
    expect(code).not.toContain('burst:')
  })

  it("presence and tabs keep no token refresh margin (core's TOKEN_DEFAULTS, read by the in-band refresh only)", async () => {
    const external = ['@tandem/core', '@tandem/core/*'] // as their bench rows: a field of an external import
    for (const entry of ['@tandem/realtime/presence', '@tandem/realtime/tabs'])
      expect(await codeOf(`export * from '${entry}'`, external), entry).not.toContain('refreshMarginMs')
    // The realtime client reads it: the check above can fail.
    expect(await codeOf(`export { createRealtime } from '@tandem/realtime'`, external)).toContain('refreshMarginMs')
  })
})

/** `source` bundled and minified as the bench does (esbuild, browser, production), as text. */
const codeOf = async (source: string, external: string[] = []): Promise<string> =>
  ((await measure(source, { ...OPTIONS, external })) as { text: string }).text

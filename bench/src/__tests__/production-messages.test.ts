// Error messages in the React manner (issue 28): an app built for production ships no long
// sentence, yet each error keeps its reason: code, field, status, request id, where, and a docs
// link. The SDK is bundled from its sources, as an app would bundle it, with `NODE_ENV` defined
// (esbuild, as the bench measures; Vite 8, as the playground builds), then run against the
// emulator. A development build keeps the sentences.
import { startEmulator, type Emulator } from '@tandem/emulator'
import { build } from 'esbuild'
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { runInNewContext } from 'node:vm'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { createServer, build as viteBuild, defaultClientConditions } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const LINK = 'https://tandem.dev/e/'

/** What the app does: one refusal per package, one error answer from the service. */
const APP = `
import { createClient } from '@tandem/core'
import { createRealtime } from '@tandem/realtime'
export { useTandem } from '@tandem/react'
const caught = (f) => { try { return f() } catch (e) { return e } }
const plain = (e) => ({ name: e.name, message: e.message, code: e.code, field: e.field, status: e.status, requestId: e.requestId })
export async function run(baseUrl) {
  const client = createClient({ baseUrl, auth: { url: baseUrl + '/dev/token' }, retry: false })
  return {
    query: plain(await client.maps.geocode({ query: '' }).catch((e) => e)),
    url: plain(caught(() => createClient({ baseUrl: baseUrl + '?api_key=k', auth: { url: baseUrl } }))),
    channel: plain(caught(() => createRealtime({ client }, { autoConnect: false }).channel('no spaces'))),
    notFound: plain(await client.maps.resources.get('no-such-place').catch((e) => e)),
    header: plain(await client.maps.resources.get('x', { headers: { 'bad header': 'v' } }).catch((e) => e)),
    mode: plain(await client.maps.computeRoute({ origin: { lat: 0, lng: 0 }, destination: { lat: 1, lng: 1 }, mode: 'fly' }).catch((e) => e)),
    body: plain(await client.maps.resources.create({ n: 1n }).catch((e) => e)),
  }
}
`

/** Long sentences, one per package or kind of check: none may be in a production bundle. */
const SENTENCES = [
  'must be a non-empty string of at most', // core's input checks (validate.ts)
  'keys stay on your server', // a credential in a URL option (url-rules.ts)
  'is required: { url }, { fetchToken }', // createClient's options
  'no page to resolve it against', // a relative token URL
  'A-Z a-z 0-9', // the channel-name rule, from @tandem/contract
  'must be JSON-serialisable', // realtime
  'pass options.WebSocket', // realtime's connection: no WebSocket
  'still retrying. Is', // realtime's connection: the hint of `unreachable`
  'wrap your app in <TandemProvider', // react
]

type Run = (baseUrl: string) => Promise<Record<string, Record<string, unknown>>>

// In the repo's node_modules, so that Vite resolves the packages from the entry file.
const dir = await mkdtemp(fileURLToPath(new URL('../../../node_modules/.cache/tandem-messages-', import.meta.url)))
const entry = join(dir, 'app.js')
await writeFile(entry, APP)
const resolveDir = new URL('.', import.meta.url).pathname

/** The app bundled by esbuild with `process.env.NODE_ENV` defined, as a file and its code. */
async function esbuildApp(env: 'production' | 'development'): Promise<{ code: string; run: Run }> {
  const result = await build({
    stdin: { contents: APP, resolveDir, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
    conditions: ['@tandem/source'],
    define: { 'process.env.NODE_ENV': JSON.stringify(env) },
  })
  const code = result.outputFiles[0]!.text
  const file = join(dir, `esbuild-${env}.mjs`)
  await writeFile(file, code)
  const { run } = (await import(pathToFileURL(file).href)) as { run: Run }
  return { code, run }
}

let emu: Emulator
beforeAll(async () => {
  emu = await startEmulator()
})
afterAll(async () => {
  await emu.close()
  await rm(dir, { recursive: true, force: true })
})

describe('production error messages (NODE_ENV=production)', () => {
  it('esbuild drops every long sentence, and each error keeps its code, field, status, request id, where and link', async () => {
    const { code, run } = await esbuildApp('production')
    expect(SENTENCES.filter((s) => code.includes(s))).toEqual([])

    const errors = await run(emu.url)
    const host = new URL(emu.url).host
    expect(errors.query).toEqual({
      name: 'ValidationError',
      message: `query: validation_error ${LINK}validation_error`,
      code: 'validation_error',
      field: 'query',
    })
    // The short fact a sentence explains stays: which credential, header or value, what is allowed, why.
    expect(errors.url).toMatchObject({
      field: 'baseUrl',
      message: `baseUrl: validation_error (api_key) ${LINK}validation_error`,
    })
    expect(errors.header!.message).toBe(`headers: validation_error ("bad header") ${LINK}validation_error`)
    expect(errors.mode!.message).toMatch(/^mode: validation_error \(drive\|.*walk.*\) https/)
    expect(errors.body!.message).toMatch(/^body: validation_error \(.*BigInt.*\) https/)
    expect(errors.channel).toMatchObject({
      name: 'ValidationError',
      field: 'channel',
      message: `channel: validation_error ${LINK}validation_error`,
    })
    // An answer of the service: where (method, host, path), status, code, request id, link.
    const { notFound } = errors
    expect(notFound).toMatchObject({ name: 'ApiError', code: 'not_found', status: 404 })
    expect(notFound!.requestId).toEqual(expect.any(String))
    expect(notFound!.message).toContain(`GET ${host}/maps/v1/resources/no-such-place: 404 not_found`)
    expect(notFound!.message).toContain(`(request ${String(notFound!.requestId)})`)
    expect(notFound!.message).toMatch(new RegExp(`${LINK}not_found$`))
  })

  it('a development build keeps the sentences', async () => {
    const { code, run } = await esbuildApp('development')
    expect(SENTENCES.filter((s) => !code.includes(s))).toEqual([])

    const errors = await run(emu.url)
    expect(errors.query).toMatchObject({ field: 'query', code: 'validation_error' })
    expect(errors.query!.message).toMatch(/^query: must be a non-empty string of at most \d+ characters$/)
    expect(errors.url!.message).toContain('keys stay on your server')
    expect(errors.channel!.message).toContain('A-Z a-z 0-9')
    expect(errors.notFound!.message).not.toContain(LINK)
  })

  it("Vite 8's production build (rolldown) drops them too", async () => {
    const outDir = join(dir, 'vite')
    await viteBuild({
      configFile: false,
      logLevel: 'silent',
      root: dir,
      mode: 'production',
      // What `vite build` defines from NODE_ENV; here NODE_ENV is vitest's 'test', so it is said.
      define: { 'process.env.NODE_ENV': '"production"' },
      resolve: { conditions: ['@tandem/source', ...defaultClientConditions] },
      build: { outDir, write: true, rollupOptions: { input: entry, preserveEntrySignatures: 'exports-only' } },
    })
    const files = await readdir(join(outDir, 'assets'))
    const code = (await Promise.all(files.map((f) => readFile(join(outDir, 'assets', f), 'utf8')))).join('\n')
    expect(code).toContain(LINK) // the app was built, with its errors
    expect(SENTENCES.filter((s) => code.includes(s))).toEqual([])
  })

  it("Vite's dev server takes the development switch: the sentences, with no `process` in the page", async () => {
    const server = await createServer({
      configFile: false,
      logLevel: 'silent',
      root: dir,
      server: { middlewareMode: true, hmr: false, ws: false },
      resolve: { conditions: ['@tandem/source', ...defaultClientConditions] },
    })
    try {
      const resolved = await server.environments.client.pluginContainer.resolveId('@tandem/contract/dev', entry)
      expect(resolved?.id).toMatch(/contract\/src\/dev\/development\.ts$/)
    } finally {
      await server.close()
    }
  })

  it('a development build for the browser, where there is no `process`, keeps the sentences (Vite dev, webpack)', async () => {
    // What a browser runs in development: the bundler has replaced process.env.NODE_ENV, resolved
    // the `development` export condition (Vite's dev server and webpack's development mode do), and
    // the page has no `process`. A guard that asked `typeof process` alone would pick production here.
    const result = await build({
      stdin: { contents: `export { createClient } from '@tandem/core'`, resolveDir, loader: 'js' },
      bundle: true,
      format: 'iife',
      globalName: 'tandem',
      platform: 'browser',
      write: false,
      logLevel: 'silent',
      conditions: ['@tandem/source', 'development'],
      define: { 'process.env.NODE_ENV': '"development"' },
    })
    const code = result.outputFiles[0]!.text
    const { URL, URLSearchParams, AbortController, Headers, setTimeout, clearTimeout, queueMicrotask } = globalThis
    const context = { URL, URLSearchParams, AbortController, Headers, setTimeout, clearTimeout, queueMicrotask }
    const message = runInNewContext(
      `${code}; try { tandem.createClient({ baseUrl: 'https://api.example?api_key=k', auth: { url: 'https://app.example/t' }, fetch }) } catch (e) { String(e && e.message) }`,
      { ...context, fetch: () => undefined },
    ) as unknown
    expect(message).toContain('keys stay on your server')
    expect(message).not.toContain(LINK)
  })
})

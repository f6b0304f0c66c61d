// The import map a page without a bundler writes for the built packages (issue 45 row 3): every
// bare specifier the packages' dist (and their dependencies) import, mapped to the file the
// package's `exports` name for a browser (`import`, `browser`, `default`; no `development` or
// `production`: a map written from the manifests by hand, as the page was). Esbuild walks
// the module graph only to resolve each specifier as a browser's import map would need it; what
// it bundles is thrown away, and the page loads the files themselves.
import { build, type Plugin } from 'esbuild'
import { realpathSync } from 'node:fs'
import { relative } from 'node:path'

/** `{ imports: { '@tandem/core/client': '/packages/core/dist/entries/client.js', ofetch: '/node_modules/…' } }`, paths from `root`. */
export async function importMapFor(specifiers: string[], root: string): Promise<{ imports: Record<string, string> }> {
  const imports: Record<string, string> = {}
  const record: Plugin = {
    name: 'record-bare-specifiers',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === 'recording') return undefined
        const resolved = await b.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: 'recording',
        })
        if (resolved.errors.length > 0 || !resolved.path) return undefined
        const path = `/${relative(root, realpathSync(resolved.path))}`
        if (imports[args.path] !== undefined && imports[args.path] !== path)
          throw new Error(`${args.path} resolves to ${imports[args.path]} and to ${path}: the page would need scopes`)
        imports[args.path] = path
        return resolved
      })
    },
  }
  await build({
    stdin: { contents: specifiers.map((s) => `export * from '${s}'`).join('\n'), resolveDir: root, loader: 'js' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    logLevel: 'silent',
    plugins: [record],
  })
  return { imports }
}

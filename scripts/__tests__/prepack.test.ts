// `npm pack` of a package whose dist is missing, stale or unbuildable (issue 45, row 8): before,
// the tarball shipped without `dist`, silently. Run on a repository of two small packages laid out
// like this one (b depends on a) in a temporary folder, with this repository's scripts.
import { execFile } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { slack } from '../../test/utils/wait.js'

const REPO = resolve(import.meta.dirname, '../..')
const TIMEOUT = Math.max(60_000, slack(20_000))

interface Packed {
  code: number
  files: string[]
  stderr: string
}

describe('npm pack of a package without an up-to-date dist', () => {
  const root = mkdtempSync(join(tmpdir(), 'tandem-prepack-'))
  const out = join(root, 'out')
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }

  /** `npm pack` in packages/<name>: the tarball's files, or the exit code and what it printed. */
  async function pack(name: string): Promise<Packed> {
    rmSync(out, { recursive: true, force: true })
    mkdirSync(out)
    try {
      const { stdout, stderr } = await promisify(execFile)(
        'npm',
        ['pack', '--json', '--foreground-scripts', '--pack-destination', out],
        {
          cwd: join(root, 'packages', name),
          encoding: 'utf8',
        },
      )
      const [tarball] = JSON.parse(stdout) as { files: { path: string }[] }[]
      return { code: 0, files: tarball!.files.map((f) => f.path).sort(), stderr }
    } catch (error) {
      const e = error as { code?: number; stderr?: string }
      return { code: e.code ?? 1, files: [], stderr: e.stderr ?? '' }
    }
  }

  beforeAll(() => {
    for (const script of ['build.mjs', 'pack-manifest.mjs', 'pack-dist.mjs'])
      cpSync(join(REPO, 'scripts', script), join(root, 'scripts', script))
    cpSync(join(REPO, 'LICENSE'), join(root, 'LICENSE'))
    // The repository's TypeScript, and the packages as npm workspaces link them.
    mkdirSync(join(root, 'node_modules', '.bin'), { recursive: true })
    mkdirSync(join(root, 'node_modules', '@tandem'))
    symlinkSync(join(REPO, 'node_modules', 'typescript'), join(root, 'node_modules', 'typescript'))
    symlinkSync(join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), join(root, 'node_modules', '.bin', 'tsc'))
    for (const [name, deps, source] of [
      ['a', {}, 'export const greeting = (name: string): string => `hello ${name}`\n'],
      ['b', { '@tandem/a': '0.1.0' }, "import { greeting } from '@tandem/a'\nexport const hello = greeting('b')\n"],
    ] as const) {
      write(
        `packages/${name}/package.json`,
        JSON.stringify({
          name: `@tandem/${name}`,
          version: '0.1.0',
          type: 'module',
          exports: {
            '.': { '@tandem/source': './src/index.ts', types: './dist/index.d.ts', default: './dist/index.js' },
          },
          files: ['dist', 'src'],
          dependencies: deps,
          scripts: {
            prepack: 'node ../../scripts/pack-manifest.mjs prepack',
            postpack: 'node ../../scripts/pack-manifest.mjs postpack',
          },
        }),
      )
      write(`packages/${name}/src/index.ts`, source)
      write(
        `packages/${name}/tsconfig.build.json`,
        JSON.stringify({
          compilerOptions: {
            module: 'nodenext',
            target: 'es2022',
            strict: true,
            rootDir: 'src',
            outDir: 'dist',
            declaration: true,
            declarationMap: true,
            sourceMap: true,
            types: [],
          },
          include: ['src'],
        }),
      )
      symlinkSync(join(root, 'packages', name), join(root, 'node_modules', '@tandem', name))
    }
  })
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  it(
    'with no dist anywhere: builds it, and the dist of what it depends on first, then packs it with dist',
    async () => {
      const packed = await pack('b')
      expect(packed.files).toEqual(
        expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'dist/index.js.map', 'src/index.ts']),
      )
      expect(existsSync(join(root, 'packages', 'a', 'dist', 'index.d.ts'))).toBe(true)
      expect(packed.stderr).toMatch(/building @tandem\/a \(dist is missing[^)]*\)[\s\S]*building @tandem\/b/)
    },
    TIMEOUT,
  )

  it(
    'with an up-to-date dist: builds nothing',
    async () => {
      const packed = await pack('b')
      expect(packed.code).toBe(0)
      expect(packed.stderr).not.toMatch(/building/)
      expect(packed.files).toContain('dist/index.js')
    },
    TIMEOUT,
  )

  it(
    'with a src newer than dist: builds again',
    async () => {
      // An edit after the last build: src a minute old, dist and the build's record two.
      const [edited, built] = [new Date(Date.now() - 60_000), new Date(Date.now() - 120_000)]
      utimesSync(join(root, 'packages', 'a', 'src', 'index.ts'), edited, edited)
      for (const file of readdirSync(join(root, 'packages', 'a', 'dist')))
        utimesSync(join(root, 'packages', 'a', 'dist', file), built, built)
      utimesSync(join(root, 'node_modules', '.cache', 'tsc', 'build-a.tsbuildinfo'), built, built)
      const packed = await pack('a')
      expect(packed.stderr).toMatch(/building @tandem\/a \(dist is older than src\)/)
      expect(packed.files).toContain('dist/index.js')
      // Built once: the next pack finds it up to date, though tsc wrote nothing new.
      expect((await pack('a')).stderr).not.toMatch(/building/)
    },
    TIMEOUT,
  )

  it(
    "npm run dev's build step (buildStale) as well: a src newer than dist is built once, not on every start",
    async () => {
      const stale = new Date(Date.now() - 60_000)
      utimesSync(join(root, 'packages', 'a', 'src', 'index.ts'), stale, stale)
      for (const file of readdirSync(join(root, 'packages', 'a', 'dist')))
        utimesSync(join(root, 'packages', 'a', 'dist', file), new Date(0), new Date(0))
      utimesSync(join(root, 'node_modules', '.cache', 'tsc', 'build-a.tsbuildinfo'), new Date(0), new Date(0))
      const start = async () => {
        const script = `import { buildStale } from './scripts/build.mjs'\nawait buildStale(['a'])`
        const run = promisify(execFile)('node', ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' })
        return (await run).stdout
      }
      expect(await start()).toMatch(/built @tandem\/a/)
      expect(await start()).toBe('')
    },
    TIMEOUT,
  )

  it(
    'with a dist that does not build: refuses, with the compiler’s error, and writes no tarball',
    async () => {
      rmSync(join(root, 'packages', 'b', 'dist'), { recursive: true })
      write(
        'packages/b/src/index.ts',
        "import { greeting } from '@tandem/a'\nexport const hello: number = greeting('b')\n",
      )
      const packed = await pack('b')
      expect(packed.code).not.toBe(0)
      expect(packed.stderr).toMatch(/npm pack refused: @tandem\/b would ship without an up-to-date dist/)
      expect(packed.stderr).toMatch(/TS2322/)
      expect(readdirSync(out)).toEqual([])
    },
    TIMEOUT,
  )
})

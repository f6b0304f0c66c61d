import { existsSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { PassThrough } from 'node:stream'
import remarkValidateLinks from 'remark-validate-links'
import { remark } from 'remark'
import { engine } from 'unified-engine'
import { docFiles, ROOT } from './snippets.js'

// Every relative link and heading anchor of the docs, checked offline by remark-validate-links:
// a file that does not exist, a `#heading` that no heading of the target has (GitHub's slugs, as
// github-slugger makes them). It runs through unified-engine (what remark-cli runs), the only way
// the plugin also checks headings in other files. External URLs are not fetched.

/** The pages checked: the docs' own (README, docs/, package READMEs), CONTRIBUTING, the examples' and the bench's. */
export function linkedFiles(): string[] {
  const inside = (dir: string, pick: (name: string) => string | undefined) =>
    existsSync(join(ROOT, dir))
      ? readdirSync(join(ROOT, dir)).flatMap((name) => {
          const file = pick(name)
          return file && existsSync(join(ROOT, dir, file)) ? [join(dir, file)] : []
        })
      : []
  return [
    ...docFiles(),
    'CONTRIBUTING.md',
    ...inside('examples', (name) => join(name, 'README.md')),
    ...inside('bench', (name) => (name.endsWith('.md') ? name : undefined)),
  ]
}

/** One line per broken link: `docs/playground.md:129: Cannot find heading for …`; empty when all resolve. */
export function brokenLinks(files: string[], root = ROOT): Promise<string[]> {
  return new Promise((resolve, reject) => {
    engine(
      {
        processor: remark,
        cwd: root,
        files: files.map((f) => join(root, f)),
        // `repository: false`: no Git remote is read, so full github.com URLs are left alone too. (A
        // preset, `{ plugins }`: the engine's own list types each plugin's options as `unknown`.)
        plugins: [{ plugins: [[remarkValidateLinks, { repository: false, root }]] }],
        // Findings are read from the files below, not printed by the engine's reporter.
        streamError: new PassThrough(),
        out: false,
        quiet: true,
        silent: true,
      },
      (error, _code, context) => {
        if (error) return reject(error)
        resolve(
          (context?.files ?? []).flatMap((f) =>
            f.messages.map((m) => `${relative(root, f.path)}:${m.line ?? '?'}: ${m.reason}`),
          ),
        )
      },
    )
  })
}

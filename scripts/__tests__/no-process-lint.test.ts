// The one rule for `process` in browser code (eslint.config.js, issue 45): a page without a bundler
// has none, so a read of it is written behind `DEV &&` (CONTRIBUTING.md, "Error messages"). The
// repository's own config, on code given to ESLint as if it were in each package: `npm run lint`
// fails on a bare read in every browser package and leaves the server's alone.
import { ESLint } from 'eslint'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const CODE = `import { DEV } from '@tandem/contract/dev'
export const guarded = DEV && process.env.NODE_ENV !== 'production' && 'a sentence'
export const bare = process.env.NODE_ENV !== 'production' && 'a sentence'
export const other = globalThis.process
`

it('a bare read of process fails the lint in browser packages, not in the server', { timeout: 180_000 }, async () => {
  const eslint = new ESLint({ cwd: ROOT })
  const flagged = async (file: string) => {
    const [result] = await eslint.lintText(CODE, { filePath: `${ROOT}${file}` })
    return result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.line)
  }
  // Files that exist (the type-aware rules need a file of the project), their text replaced by CODE.
  expect(await flagged('packages/core/src/errors.ts')).toEqual([3, 4])
  expect(await flagged('packages/realtime/src/realtime.ts')).toEqual([3, 4]) // its block has no-restricted-syntax of its own
  expect(await flagged('packages/messenger/src/element.ts')).toEqual([3, 4])
  expect(await flagged('packages/server/src/index.ts')).toEqual([])
})

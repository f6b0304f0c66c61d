#!/usr/bin/env node
// Fails when the built playground holds a secret: the emulator's dev key secret (the one the
// dev server signs tokens with), any other key secret of the dev app, or anything JWT-shaped
// (a token minted at build time and inlined by mistake); or dev-only code a production build
// must not carry: calls to the dev server's controls (`/api/dev/`: Drop connection, Expire token,
// Flood, Simulate a 429) and the chat list's render counter (`__chatListCommits`). Usage:
//   node scripts/check-bundle.mjs [--dir playground/dist]
// Prints the file and the kind of finding, never the secret itself.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DEV_APP } from '@tandem/emulator'

const args = process.argv.slice(2)
const at = args.indexOf('--dir')
const dir = resolve(at >= 0 && args[at + 1] ? args[at + 1] : fileURLToPath(new URL('../dist', import.meta.url)))

/** Secrets as text, plus their base64 and base64url forms (an encoded copy leaks just the same). */
const needles = []
for (const key of DEV_APP.keys) {
  for (const form of [
    key.secret,
    Buffer.from(key.secret).toString('base64'),
    Buffer.from(key.secret).toString('base64url'),
  ]) {
    needles.push({ what: `the secret of key ${key.id}`, text: form.replace(/=+$/, '') })
  }
}
// header.payload.signature, each base64url; real headers and payloads are JSON objects ("eyJ" = '{"').
const JWT = /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}/
// A bearer header with a literal value (not a template such as `Bearer ${token}`).
const BEARER = /Bearer\s+[A-Za-z0-9._~+/-]{20,}=*/
/** Dev-only code, guarded by `import.meta.env.DEV` in the sources: a production build drops it. */
const DEV_ONLY = [
  { what: "a call to the dev server's controls", text: '/api/dev/' },
  { what: "the chat list's dev-only render counter", text: '__chatListCommits' },
]

function* files(root) {
  for (const name of readdirSync(root)) {
    const path = join(root, name)
    if (statSync(path).isDirectory()) yield* files(path)
    else yield path
  }
}

let list
try {
  list = [...files(dir)]
} catch {
  console.error(`check-bundle: ${dir} does not exist. Build first: npm run build -w playground`)
  process.exit(2)
}
if (!list.length) {
  console.error(`check-bundle: ${dir} is empty. Build first: npm run build -w playground`)
  process.exit(2)
}

const findings = []
let bytes = 0
for (const file of list) {
  const text = readFileSync(file, 'latin1')
  bytes += text.length
  for (const n of needles) if (text.includes(n.text)) findings.push(`${relative(dir, file)}: ${n.what}`)
  if (JWT.test(text)) findings.push(`${relative(dir, file)}: a JWT-shaped string`)
  if (BEARER.test(text)) findings.push(`${relative(dir, file)}: a literal bearer token`)
  for (const d of DEV_ONLY) {
    const n = text.split(d.text).length - 1
    if (n) findings.push(`${relative(dir, file)}: ${d.what} (${d.text}, ${n}×)`)
  }
}

if (findings.length) {
  console.error(`check-bundle: FAILED, in ${dir}:\n  ${[...new Set(findings)].join('\n  ')}`)
  process.exit(1)
}
console.log(
  `check-bundle: ok, ${list.length} files (${Math.round(bytes / 1024)} KiB) in ${relative(process.cwd(), dir) || dir} hold no key secret, no token and no dev-only code`,
)

// What Tandem's use cases pay for upstream code they never run (issue 28): each use case is built
// as `bundle` builds it, then again with one upstream piece replaced by what Tandem uses of it; the
// difference is that piece's cost. Measured, not patched: the shipped packages are untouched.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { measure, USE_CASES } from './bundle.mjs'

const root = fileURLToPath(new URL('../..', import.meta.url))
const read = (p) => readFileSync(`${root}/node_modules/${p}`, 'utf8')

/** Resolves `filter` to a module of its own holding `contents`. */
const stub = (name, filter, contents) => ({
  name,
  setup(b) {
    b.onResolve({ filter }, (a) => ({ path: a.path, namespace: name }))
    b.onLoad({ filter: /.*/, namespace: name }, () => ({ contents, loader: 'js' }))
  },
})
/** Loads files matching `filter` through `edit`. */
const rewrite = (name, filter, edit) => ({
  name,
  setup(b) {
    b.onLoad({ filter }, (a) => ({ contents: edit(readFileSync(a.path, 'utf8')), loader: 'js' }))
  },
})

/** Each piece: what it is, why Tandem does not need it, and the plugins that take it out. */
export const PIECES = [
  {
    name: "ofetch's `ufo` and `destr`",
    why: 'Tandem passes whole URLs (no `baseURL`, no `query`) and its own `parseResponse`, so neither is called',
    plugins: [
      stub('no-destr', /^destr$/, 'export default (x) => x'),
      stub('no-ufo', /^ufo$/, 'export const withBase = (u) => u; export const withQuery = (u) => u'),
    ],
  },
  {
    name: "ofetch's default instance and global lookup, run at import",
    why: 'Tandem calls `createFetch` with its own options; the default `ofetch` is built anyway',
    plugins: [
      rewrite('no-default', /ofetch[\\/]dist[\\/]index\.mjs$/, (text) => {
        const cut = text.indexOf('\nconst _globalThis')
        if (cut < 0) throw new Error('ofetch/dist/index.mjs changed: update bench/src/upstream.mjs')
        return `${text.slice(0, cut)}\nexport { createFetch }`
      }),
    ],
  },
  {
    name: "partysocket's long warning and error texts",
    why: 'each a sentence of 40 characters or more, kept in production builds',
    plugins: [
      rewrite('short-texts', /partysocket[\\/]dist[\\/]ws\.js$/, (text) =>
        text
          .replace(/`(?:\\[\s\S]|[^`\\])*`/g, (t) => (t.length > 41 ? '``' : t))
          .replace(/"(?:\\.|[^"\\\n])*"/g, (t) => (t.length > 41 ? '""' : t)),
      ),
    ],
  },
]

const gzip = async (source, external = [], plugins = []) =>
  (await measure(source, { external, conditions: ['@tandem/source'], plugins })).gzip

/** Per use case: its size, each piece's cost, and the size without them. */
export async function measureUpstream() {
  const rows = []
  for (const u of USE_CASES) {
    const size = await gzip(u.source, u.external)
    const costs = []
    for (const p of PIECES) costs.push(size - (await gzip(u.source, u.external, p.plugins)))
    const without = await gzip(
      u.source,
      u.external,
      PIECES.flatMap((p) => p.plugins),
    )
    rows.push({ name: u.name, goal: u.target, size, costs, without })
  }
  return rows
}

const kB = (n) => (n / 1000).toFixed(2)

export async function run() {
  // The pieces are read here so a changed upstream file fails loudly rather than measuring nothing.
  read('ofetch/dist/index.mjs')
  read('partysocket/dist/ws.js')
  const rows = await measureUpstream()
  const head = ['use case', 'now', ...PIECES.map((p) => p.name), 'without them', 'goal']
  const lines = [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map(
      (r) =>
        `| ${r.name.split(':')[0]} | ${kB(r.size)} | ${r.costs.map((c) => (c ? `−${c} B` : '0')).join(' | ')} | ${kB(r.without)} | ${r.goal ? kB(r.goal) : 'none'} |`,
    ),
  ]
  return {
    title: 'Upstream bytes Tandem never runs (min+gzip, measured by taking each out of a copy of the bundle)',
    body: [
      ...lines,
      '',
      ...PIECES.map((p) => `- ${p.name}: ${p.why}.`),
      '',
      'Written down, not patched (issue 28): ofetch stays on its latest stable release and partysocket on its own build.',
    ].join('\n'),
  }
}

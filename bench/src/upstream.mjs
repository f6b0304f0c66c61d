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
      '',
      'Dependency choices weighed for issue 49 (measured 2026-11-29 with `measure()` from bench/src/bundle.mjs, one package swapped at a time):',
      '',
      "- **ofetch 2.0.0-alpha.3** (no dependencies; keeps `createFetch`, `.create()` and `.raw`): ofetch alone 4.04 → 2.39 kB; maps-only −1,555 B, React app −1,574 B, whole SDK −1,589 B. Not adopted: npm's `latest` is 1.5.1 and the 2.x line is an alpha. Revisit when 2.0 is stable; it is the one dependency move that takes maps-only near its goal.",
      "- **ofetch 1.5.1's import shapes**: none avoids `ufo` and `destr`. `createFetch` lives in a shared chunk that imports both at its top, `ofetch/node` pulls the same chunk, and the chunk is not in the `exports` map. Its own options (`parseResponse`, no `baseURL`) stop the calls, not the bytes.",
      "- **partysocket's entry points**: `partysocket/ws` (what Tandem uses) is 2.73 kB, the main entry's `PartySocket` 4.06 kB, `{ WebSocket }` from the main entry 2.73 kB: already the smallest. It has no build flag or `NODE_ENV` guard for its warning texts; an app-side `pure: ['console.warn', 'console.error']` would cut 0.53 kB but drop the app's own console calls too, so it is not recommended.",
      "- **Replacing partysocket with a small opener of Tandem's own** would take realtime-only −2.16 kB (to about 12.75 kB, under socket.io-client's 13.1) and the React app −2.27 kB. Not done: partysocket is on the design card, which says to wrap a package that falls short, never to replace it with hand-written code. This is why the realtime-only and React app size goals of issue 49 stay missed.",
    ].join('\n'),
  }
}

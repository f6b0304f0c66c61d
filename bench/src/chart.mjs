// bench/results.svg: the figures of the last runs as a picture. Left, each use case's bundle
// beside its peers (min+gzip kB, the goal as a tick); right, the speed ratios against their
// floors (1.0 = as fast as the floor; the goal as a tick). Plain SVG, no dependency.

const W = 960
const ROW = 18
const GAP = 10
const FONT = 'font-family="system-ui, -apple-system, Segoe UI, sans-serif" font-size="11"'
const COLORS = { tandem: '#2563eb', peer: '#9ca3af', goal: '#dc2626', text: '#111827', muted: '#6b7280' }

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
const short = (name) => esc(name.length > 44 ? `${name.slice(0, 43)}…` : name)

/** Horizontal bars: rows of { label, value, tandem, goal? }, scaled to `max`, drawn at x, y. */
function bars(rows, { x, y, width, max, unit, title }) {
  const labelW = 250
  const barW = width - labelW - 60
  const scale = (v) => (Math.min(v, max) / max) * barW
  let out = `<text x="${x}" y="${y}" ${FONT} font-weight="600" fill="${COLORS.text}">${esc(title)}</text>`
  let cy = y + 12
  for (const r of rows) {
    if (r.gap) {
      cy += GAP
      continue
    }
    const w = Math.max(1, scale(r.value))
    const fill = r.tandem ? COLORS.tandem : COLORS.peer
    out +=
      `<text x="${x + labelW - 6}" y="${cy + 12}" ${FONT} text-anchor="end" fill="${r.tandem ? COLORS.text : COLORS.muted}">${short(r.label)}</text>` +
      `<rect x="${x + labelW}" y="${cy + 2}" width="${w.toFixed(1)}" height="${ROW - 5}" rx="2" fill="${fill}"/>` +
      `<text x="${(x + labelW + w + 4).toFixed(1)}" y="${cy + 12}" ${FONT} fill="${COLORS.text}">${r.value.toFixed(2)}${unit}</text>`
    if (r.goal !== undefined) {
      const gx = (x + labelW + scale(r.goal)).toFixed(1)
      out += `<line x1="${gx}" x2="${gx}" y1="${cy}" y2="${cy + ROW}" stroke="${COLORS.goal}" stroke-width="2"/>`
    }
    cy += ROW
  }
  return { svg: out, height: cy - y }
}

/** The chart from the figures of each bench section (what run() returned as `figures`). */
export function chart(figures) {
  const sizeRows = []
  for (const u of figures.bundle?.sizes ?? []) {
    if (sizeRows.length) sizeRows.push({ gap: true })
    const goal = u.goal === undefined ? undefined : u.goal / 1000 // a use case may have no goal
    sizeRows.push({ label: u.name.split(':')[0], value: u.gzip / 1000, tandem: true, goal })
    for (const p of u.peers) sizeRows.push({ label: p.name, value: p.gzip / 1000 })
  }
  const ratioRows = []
  for (const section of ['realtime', 'rest']) {
    const f = figures[section]
    if (!f) continue
    if (ratioRows.length) ratioRows.push({ gap: true })
    for (const [label, value] of Object.entries(f.ratios)) ratioRows.push({ label, value, tandem: true, goal: f.goal })
  }
  const maxSize = Math.max(1, ...sizeRows.filter((r) => !r.gap).map((r) => r.value))
  const left = bars(sizeRows, {
    x: 10,
    y: 24,
    width: W / 2 + 40,
    max: maxSize,
    unit: ' kB',
    title: 'Bundle per use case, min+gzip (Tandem blue, peers grey, goal red)',
  })
  const right = bars(ratioRows, {
    x: W / 2 + 60,
    y: 24,
    width: W / 2 - 70,
    max: 1.5,
    unit: '×',
    title: 'Speed against the floor (1.0 = as fast; goal red)',
  })
  const height = Math.max(left.height, right.height) + 40
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${height}" viewBox="0 0 ${W} ${height}" role="img" aria-label="Tandem benchmark results">` +
    `<rect width="100%" height="100%" fill="#ffffff"/>${left.svg}${right.svg}` +
    `<text x="10" y="${height - 8}" ${FONT} fill="${COLORS.muted}">npm run bench (bench/RESULTS.md has every figure and the command)</text></svg>\n`
  )
}

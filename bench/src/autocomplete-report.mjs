// The autocomplete bench's section of RESULTS.md (autocomplete.mjs measures): its tables, and each
// target said met or missed from the figures of the run.
import { fmt, table } from './stats.mjs'

/** The value below which `p` % of `values` fall (nearest rank). */
const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
}

/** Markdown for RESULTS.md from the three parts' figures and what was typed. */
export function report(
  { typed, store, naive, times, parallelMs },
  { address: ADDRESS, addresses: ADDRESSES, slotMs: SLOT_MS, debounceMs: LATENCY_DEBOUNCE_MS },
) {
  const used = (c) => `${c.answered}${c.aborted ? ` (+${c.aborted} aborted)` : ''}`
  const ms = (v) => fmt(v, 1)
  const stats = (values) => [ms(percentile(values, 50)), ms(percentile(values, 95)), ms(Math.max(...values))]
  const p95 = percentile(times.store, 95)
  const worst = Math.max(...typed.map((r) => r.store.answered + r.store.aborted))
  const degraded = [...store.seen.degraded].join(', ') || 'never'
  return {
    title: 'Address autocomplete within the quota: requests per address, a minute on the free plan, latency',
    body: [
      `### Requests to type one address (\`${ADDRESS}\`), then a pause`,
      table(
        ['typist', 'keystrokes', 'createAutocomplete: requests', 'naive widget: requests', 'saved'],
        typed.map((r) => [
          r.typist,
          fmt(r.keys),
          `**${used(r.store)}**`,
          used(r.naive),
          `${fmt(100 * (1 - (r.store.answered + r.store.aborted) / r.naive.answered))} %`,
        ]),
      ),
      `Target (issue 32): ≤ 4 requests at 80 ms a character; ${worst <= 4 ? 'met' : '**missed**'} by every typist here (at most ${worst}, aborted ones counted: they may have reached the service). createAutocomplete with its defaults (debounce 200 ms, 3 letters before asking, 5 suggestions, an answer that lists every match is filtered locally as the input grows, the answers kept by input); the naive widget asks for every value the input takes, backspaces included. Each contender types on a client of its own against the emulator in its own process, on real timers, both at once; the store's last snapshot must list the address first.`,
      `### Ten addresses in one minute on the free plan (maps: 100 requests per 60 s)`,
      table(
        ['widget', 'requests', '429s met', 'addresses shown first', 'waits for a slot', 'degraded'],
        [
          [
            'createAutocomplete (the client with its rate limiter and retries)',
            `**${used(store.count)}**`,
            `**${fmt(store.count.tooMany)}**`,
            `${store.shown} of ${ADDRESSES.length}`,
            fmt(store.count.waits),
            degraded,
          ],
          [
            'naive widget (no rate limiter, no retry)',
            used(naive.count),
            fmt(naive.count.tooMany),
            `${naive.shown} of ${ADDRESSES.length}`,
            '–',
            '–',
          ],
        ],
      ),
      `Each address typed at 80 ms a character, one every ${SLOT_MS / 1000} s (${ms(store.wallMs / 1000)} s in all: the real minute, not a scaled window, so the store's defaults are what is measured), the input cleared between them. Target: no 429; ${store.count.tooMany === 0 ? 'met' : '**missed**'}. The naive widget asks for every keystroke (${fmt(ADDRESSES.reduce((n, a) => n + a.length, 0))} in all) and meets a 429 for ${fmt(naive.count.tooMany)} of them once the bucket of 100 is spent (it refills at 1.67 a second); "shown first" counts the addresses whose suggestions listed the address first once the typing had ended (for the naive widget, the last answer to arrive: a 429 leaves the one before it in place). Choosing a suggestion (\`select\`) would add 2 requests per address (its place and its validated address) to either widget. Each contender has an emulator of its own (the plan's bucket is per app). Parts 1 and 2 ran at the same time (${ms(parallelMs / 1000)} s).`,
      `### Latency: from the debounce firing to the snapshot with suggestions (${fmt(times.store.length)} queries)`,
      table(
        ['', 'p50 ms', 'p95 ms', 'max ms'],
        [
          [
            'createAutocomplete: `loading` (the debounce fired) to `success` with suggestions',
            ...stats(times.store).map((v, i) => (i === 1 ? `**${v}**` : v)),
          ],
          ['bare `autocompletePlaces` call (baseline)', ...stats(times.bare)],
        ],
      ),
      `Target: ≤ 150 ms at p95; ${p95 <= 150 ? 'met' : '**missed**'}. Ratio at p50: **${fmt(percentile(times.store, 50) / percentile(times.bare, 50), 2)}×** the bare call. Each query is a distinct prefix (3 letters or more) of the ten addresses and of three streets that the service has suggestions for, pasted into a fresh store (nothing cached, nothing refined: every one is a request), with the store's debounce at ${LATENCY_DEBOUNCE_MS} ms to keep the run short (the figure starts when it fires); the bare call and the store alternate per query, on one client without a rate limiter, against an emulator without plan limits, in its own process.`,
    ].join('\n\n'),
  }
}

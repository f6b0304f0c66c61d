// Every tunable of the support module in one place.
export const DEFAULTS = {
  /** Seeded timestamps lie before this instant; new writes use the real clock. */
  epoch: Date.UTC(2025, 0, 1),
  conversations: 300,
  agents: 10,
  maxThreads: 8,
  /** Seeded conversations are spread over this many days before the epoch. */
  spanDays: 180,
  previewLength: 120,
  excerptLength: 160,
  /** Input limits, shared by the REST checks and the docs. */
  max: { subject: 255, text: 50_000, name: 200, email: 254, tag: 50, tags: 20, query: 200 },
} as const

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
  /** The mailbox (by slug) a customer's new conversation lands in; the first mailbox if none has it. */
  customerMailbox: 'support',
  /** A customer's conversation without a subject takes this much of its text's start. */
  customerSubjectLength: 80,
} as const

// @tandem/realtime (issue 4): createRealtime, channels, presence. See docs/protocol.md.
export {}

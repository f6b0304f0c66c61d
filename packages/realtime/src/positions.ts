// @tandem/realtime/positions: where each channel was, kept across a reload (messages/positions.ts).
export { sessionPositions } from './messages/positions.js'
export type { PersistOptions, PositionStorage, Positions, PositionsFactory, Saved } from './messages/positions.js'

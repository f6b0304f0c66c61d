import { MapsSearch } from './maps-search'

export default function MapsPage() {
  return (
    <>
      <h1>Places</h1>
      <MapsSearch />
    </>
  )
}

import { useEffect, useState } from 'react'

/** True once the page is hydrated (JavaScript running). */
export function useHydrated() {
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  return hydrated
}

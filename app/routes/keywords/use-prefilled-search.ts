import { useSubmit } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import type { SearchDefaults } from './search-form'

/**
 * With JavaScript, a prefilled search (`autoRun`) is submitted once from the page (with its overlay); `replace`
 * drops the prefill URL from the history, so neither Back nor a reload runs it again. The submit waits for a timer so
 * that it never starts inside the router's own update of the navigation that brought us here.
 */
export function usePrefilledSearch({
  autoRun,
  formKey,
  defaults,
}: {
  autoRun: boolean
  formKey: string
  defaults: SearchDefaults
}) {
  const submit = useSubmit()
  const lastAutoRun = useRef<string | null>(null)
  useEffect(() => {
    if (!autoRun || lastAutoRun.current === formKey) return
    const timer = setTimeout(() => {
      if (lastAutoRun.current === formKey) return
      lastAutoRun.current = formKey
      const form = new FormData()
      form.set('intent', 'search')
      form.set('query', defaults.query)
      form.set('countryCode', defaults.countryCode)
      form.set('languageCode', defaults.languageCode)
      submit(form, { method: 'post', action: '/keywords', replace: true })
    }, 0)
    return () => clearTimeout(timer)
  }, [autoRun, formKey, defaults, submit])
}

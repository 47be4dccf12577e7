// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest'
import { restoreFocus } from './dialog'

const nextMutation = () => new Promise((resolve) => setTimeout(resolve, 0))

function button(disabled: boolean) {
  const el = document.createElement('button')
  el.textContent = 'Find Keywords'
  el.disabled = disabled
  document.body.append(el)
  return el
}

afterEach(() => {
  document.body.innerHTML = ''
})

describe('restoreFocus', () => {
  it('gives the focus back to the opener at once when it can take it', () => {
    const opener = button(false)
    restoreFocus({ current: opener })
    expect(document.activeElement).toBe(opener)
  })

  it('waits for a submit button that is disabled while its form is busy, then focuses it', async () => {
    const opener = button(true)
    restoreFocus({ current: opener })
    expect(document.activeElement).toBe(document.body)
    opener.disabled = false
    await nextMutation()
    expect(document.activeElement).toBe(opener)
  })

  it('focuses the opener again when the focus was dropped right after it was given back', async () => {
    const opener = button(false)
    restoreFocus({ current: opener })
    opener.blur()
    expect(document.activeElement).toBe(document.body)
    await new Promise((resolve) => setTimeout(resolve, 80))
    expect(document.activeElement).toBe(opener)
  })

  it('leaves the focus where the person moved it meanwhile', async () => {
    const opener = button(true)
    const other = document.createElement('input')
    document.body.append(other)
    restoreFocus({ current: opener })
    other.focus()
    opener.disabled = false
    await nextMutation()
    expect(document.activeElement).toBe(other)
  })

  it('does nothing for an opener that left the page', () => {
    const opener = button(false)
    opener.remove()
    restoreFocus({ current: opener })
    expect(document.activeElement).toBe(document.body)
  })
})

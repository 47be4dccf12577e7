import fs from 'node:fs'
import path from 'node:path'
import { JSDOM } from 'jsdom'
import { createElement, type ReactNode } from 'react'
import { savedPages } from './saved'

/** HTML attribute names whose React prop has another name. */
const PROPS: Record<string, string> = {
  class: 'className',
  for: 'htmlFor',
  tabindex: 'tabIndex',
  readonly: 'readOnly',
  maxlength: 'maxLength',
  minlength: 'minLength',
  autocomplete: 'autoComplete',
  autofocus: 'autoFocus',
  colspan: 'colSpan',
  rowspan: 'rowSpan',
  crossorigin: 'crossOrigin',
  enctype: 'encType',
  formnovalidate: 'formNoValidate',
  novalidate: 'noValidate',
  inputmode: 'inputMode',
  spellcheck: 'spellCheck',
  srcset: 'srcSet',
  datetime: 'dateTime',
  charset: 'charSet',
  'http-equiv': 'httpEquiv',
  fetchpriority: 'fetchPriority',
  referrerpolicy: 'referrerPolicy',
  accesskey: 'accessKey',
  contenteditable: 'contentEditable',
}
const BOOLEAN = new Set([
  'checked',
  'disabled',
  'selected',
  'hidden',
  'required',
  'multiple',
  'open',
  'defer',
  'async',
  'readOnly',
  'autoFocus',
  'noValidate',
  'formNoValidate',
  'inert',
])

function styleObject(style: string) {
  const out: Record<string, string> = {}
  for (const decl of style.split(';')) {
    const at = decl.indexOf(':')
    if (at < 0) continue
    const name = decl.slice(0, at).trim()
    if (!name) continue
    const key = name.startsWith('--') ? name : name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())
    out[key] = decl.slice(at + 1).trim()
  }
  return out
}

/** The DOM node as React elements: the same tags, attributes and text, for React to render on each request. */
function toReact(node: Node, key: number): ReactNode {
  if (node.nodeType === 3) return node.textContent
  if (node.nodeType !== 1) return null
  const el = node as Element
  const props: Record<string, unknown> = { key }
  for (const attr of Array.from(el.attributes)) {
    const name = PROPS[attr.name] ?? attr.name
    if (name === 'style') props.style = styleObject(attr.value)
    else if (BOOLEAN.has(name)) props[name] = true
    else props[name] = attr.value
  }
  const tag = el.localName
  if (tag === 'script' || tag === 'style') {
    props.dangerouslySetInnerHTML = { __html: el.innerHTML }
    return createElement(tag, props)
  }
  if (tag === 'textarea') return createElement(tag, { ...props, defaultValue: el.textContent ?? '' })
  if (tag === 'select') {
    // React marks the chosen option from the select's value, not from the options' own `selected`.
    const chosen = Array.from(el.querySelectorAll('option')).find((o) => o.hasAttribute('selected'))
    if (chosen) props.defaultValue = chosen.getAttribute('value') ?? chosen.textContent
    return createElement(
      tag,
      props,
      Array.from(el.childNodes, (child, i) => {
        if (child.nodeType !== 1) return toReact(child, i)
        const option = child as Element
        return createElement(
          'option',
          { key: i, value: option.getAttribute('value') ?? undefined, disabled: option.hasAttribute('disabled') },
          option.textContent,
        )
      }),
    )
  }
  if (tag === 'input' && 'value' in props) {
    props.defaultValue = props.value
    delete props.value
  }
  if (tag === 'input' && props.checked) {
    props.defaultChecked = true
    delete props.checked
  }
  const children = Array.from(el.childNodes, (child, i) => toReact(child, i))
  return createElement(tag, props, ...(children.length ? [children] : []))
}

/** Reads bench/anchor/saved/<path>.html (written by bench/40-web.ts) into `savedPages`, once. */
function load() {
  const savedDir = process.env.ANCHOR_SAVED_DIR ?? path.resolve('bench/anchor/saved')
  for (const file of fs.existsSync(savedDir) ? fs.readdirSync(savedDir) : []) {
    const html = fs.readFileSync(path.join(savedDir, file), 'utf8')
    const { document } = new JSDOM(html).window
    savedPages.set(decodeURIComponent(file.replace(/\.html$/, '')), {
      title: document.title,
      styles: Array.from(document.head.querySelectorAll('style'), (s) => s.textContent ?? ''),
      stylesheets: Array.from(document.head.querySelectorAll('link[rel="stylesheet"]'), (l) => l.getAttribute('href')!),
      body: document.body.innerHTML,
      tree: Array.from(document.body.childNodes, (child, i) => toReact(child, i)),
    })
  }
}

let loaded = false
export function savedPage(pathname: string) {
  if (!loaded) {
    load()
    loaded = true
  }
  return savedPages.get(pathname)
}

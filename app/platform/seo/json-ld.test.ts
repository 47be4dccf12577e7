import { describe, expect, it } from 'vitest'
import { jsonForScript, jsonLdObjectsOf, jsonLdScripts } from './json-ld'

describe('JSON-LD for a remote site', () => {
  it('reads the stored objects whatever shape the row has', () => {
    expect(jsonLdObjectsOf([{ '@type': 'Article' }, null, 'x', [1], { '@type': 'FAQPage' }])).toEqual([
      { '@type': 'Article' },
      { '@type': 'FAQPage' },
    ])
    expect(jsonLdObjectsOf({ '@type': 'Article' })).toEqual([{ '@type': 'Article' }])
    expect(jsonLdObjectsOf(null)).toEqual([])
    expect(jsonLdObjectsOf('[]')).toEqual([])
  })

  it('writes one script element per object that no value can end early', () => {
    const hostile = { '@type': 'Article', headline: '</script><script>alert(1)</script> & <!--' }
    const html = jsonLdScripts([hostile, { '@type': 'FAQPage' }])
    expect(html.match(/<script type="application\/ld\+json">/g)).toHaveLength(2)
    expect(html.match(/<\/script>/g)).toHaveLength(2)
    expect(html).not.toContain('<!--')
    const first = html.split('\n')[0]!.replace(/^<script[^>]*>|<\/script>$/g, '')
    expect(JSON.parse(first)).toEqual(hostile)
    expect(jsonForScript(['<&>'])).toBe('["\\u003c\\u0026\\u003e"]')
  })
})

import { describe, expect, it } from 'vitest'
import { aiSettingsSchema, looksLikeEmail, looksLikeSecret, PROMPT_MESSAGES, promptSchema } from './settings'

describe('prompt rules', () => {
  it('refuses keys, tokens and e-mail addresses, and lets ordinary questions through', () => {
    for (const secret of [
      'sk-proj-abcdefghijklmnop1234',
      'sk_live_51Habcdefghijklmnopqrstu',
      'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
      'AKIAIOSFODNN7EXAMPLE',
      'AIzaSyA-abcdefghijklmnopqrstuvwxyz12345',
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
      'password: hunter2hunter2',
      'Authorization: Bearer abcdefghijklmnopqrstuvwxyz',
      'token=0123456789abcdef',
      'x9Kq2mPz7Lw4Rt8Yv3Nb6Hc1Jd5',
    ])
      expect(looksLikeSecret(`Which CRM is best ${secret}`), secret).toBe(true)
    for (const fine of [
      'What is the best risk-assessment tool for small construction firms?',
      'Which desk-booking software works for a 50-person office in 2025?',
      'Is https://example.com/blog/2024/best-crm-tools-for-plumbers a good guide?',
      'What are the top 10 CRM tools for B2B SaaS startups under $100 a month?',
      'Which password manager should a small team use?',
    ])
      expect(looksLikeSecret(fine), fine).toBe(false)
    expect(looksLikeEmail('write to jane.doe@acme.co please')).toBe(true)
    expect(looksLikeEmail('what does @acme on twitter sell')).toBe(false)
  })

  it('cleans and bounds the text, with the messages the form shows', () => {
    const ok = promptSchema.safeParse({ prompt: '  Which\u200b CRM\n\nfor   plumbers?\u0007 ' })
    expect(ok.success && ok.data.prompt).toBe('Which CRM for plumbers?')
    const message = (prompt: unknown) => {
      const r = promptSchema.safeParse({ prompt })
      return r.success ? null : r.error.issues.map((i) => i.message)
    }
    expect(message('   ')).toEqual([PROMPT_MESSAGES.required])
    expect(message('too short')).toEqual([PROMPT_MESSAGES.tooShort])
    expect(message('a'.repeat(301))).toEqual([PROMPT_MESSAGES.tooLong])
    expect(message(42)).toEqual([PROMPT_MESSAGES.required])
  })
})

describe('AI visibility settings', () => {
  it('reads lines, normalises competitor domains and names the bad ones', () => {
    const ok = aiSettingsSchema.parse({
      brandAliases: 'Acme\n acme \n\nAcme CRM',
      competitorDomains: 'https://www.Rival.com/\nrival.com\nother.io',
      samples: '4',
    })
    expect(ok).toEqual({ brandAliases: ['Acme', 'Acme CRM'], competitorDomains: ['rival.com', 'other.io'], samples: 4 })
    const bad = aiSettingsSchema.safeParse({
      brandAliases: Array.from({ length: 11 }, (_, i) => `Name ${i}`).join('\n'),
      competitorDomains: 'localhost\nrival.com/pricing',
      samples: '0',
    })
    expect(bad.success).toBe(false)
    const byField: Record<string, string[]> = {}
    for (const i of bad.success ? [] : bad.error.issues) (byField[String(i.path[0])] ??= []).push(i.message)
    expect(byField.brandAliases).toEqual(['Enter at most 10 other names, one per line.'])
    expect(byField.competitorDomains).toEqual([
      expect.stringMatching(/^“localhost”: /),
      '“rival.com/pricing”: Enter a domain like example.com, without a path.',
    ])
    expect(byField.samples).toEqual(['Choose between 1 and 5 answers per prompt.'])
  })
})

import { LIMITS, TRIAL_DAYS } from '#app/features/billing/plans'

/** The landing page's copy that more than one place uses (the FAQ also feeds the FAQPage JSON-LD). */
export const TRIAL_NOTE = `Free ${TRIAL_DAYS}-day trial • No credit card required`

export const FAQS = [
  {
    question: 'What does Rankwell do?',
    answer:
      'Rankwell finds keywords your website can realistically rank for, with search volume and ranking difficulty for your country and language, writes SEO blog posts for them with AI, and can publish them to your site on Auto Pilot through a webhook.',
  },
  {
    question: 'Do I need to know SEO to use it?',
    answer:
      'No. Every keyword gets a difficulty label from Easy to Very Hard, so you know which ones a young site can win, and every post is structured for search: a focused title, clear headings and a meta description. Our free SEO guide explains the rest in plain language.',
  },
  {
    question: 'How does the free trial work?',
    answer: `The trial lasts ${TRIAL_DAYS} days and needs no credit card. It includes ${LIMITS.trial.keywordSearches} keyword analyses and ${LIMITS.trial.blogPosts} AI-generated blog posts, so you can see results before you pay.`,
  },
  {
    question: 'What is included in Premium?',
    answer: `Premium includes ${LIMITS.premium.keywordSearches} keyword analyses and ${LIMITS.premium.blogPosts} AI-generated blog posts a month, Auto Pilot mode and priority support. You can pay monthly, every 3 months or yearly, and cancel at any time.`,
  },
  {
    question: 'How does Auto Pilot publish to my website?',
    answer:
      'Auto Pilot researches keywords around your product, writes a post for the best one and sends it to a webhook URL you choose, signed so that your site can verify it came from us. Any CMS or site that can receive a webhook can publish it.',
  },
  {
    question: 'How long until I see traffic?',
    answer:
      'Most new sites see their first rankings for easy long-tail keywords within two to three months of publishing consistently, and meaningful traffic within three to six months. SEO compounds: every post keeps working after it is published.',
  },
] as const

export const TESTIMONIALS = [
  {
    quote:
      'I used to lose every Sunday to keyword spreadsheets and half-finished drafts. Now I pick two Easy keywords on Monday and the posts are ready before lunch. Organic sign-ups overtook paid ads in our fourth month.',
    name: 'Maya Lindqvist',
    role: 'Founder, a scheduling app for tutors',
  },
  {
    quote:
      'The difficulty labels changed how we do content. We stopped chasing keywords we could never win and started ranking for dozens of specific ones. Auto Pilot keeps the blog alive while we ship product.',
    name: 'Daniel Okafor',
    role: 'Co-founder, a B2B invoicing startup',
  },
] as const

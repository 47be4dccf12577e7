import { Link } from '@remix-run/react'
import type { ReactNode } from 'react'
import { PLANS, PREMIUM_FEATURES, TRIAL_DAYS, TRIAL_FEATURES, planValue } from '#app/features/billing/plans'
import { IconCard, NumberedSteps } from './cards'
import { FAQS, TESTIMONIALS, TRIAL_NOTE } from '#app/features/marketing/landing-copy'
import { Icon, type IconName } from './icons'
import { IntroVideo } from './intro-video'
import { ProductMock } from './product-mock'

/** The landing page's sections, top to bottom. */

/**
 * A section under a centred heading (eyebrow, title, optional intro): `id` is the heading's id, which labels the
 * section; `width` is the content's max width; `white` gives it a white background.
 */
function LandingSection({
  id,
  anchor,
  eyebrow,
  title,
  intro,
  width,
  white = false,
  children,
}: {
  id: string
  anchor?: string
  eyebrow: string
  title: string
  intro?: string
  width: 'max-w-3xl' | 'max-w-4xl' | 'max-w-5xl' | 'max-w-6xl'
  white?: boolean
  children: ReactNode
}) {
  return (
    <section id={anchor} aria-labelledby={id} className={white ? 'bg-white px-4 py-20' : 'px-4 py-20'}>
      <div className={`mx-auto ${width}`}>
        <div className="mx-auto max-w-3xl text-center">
          <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">{eyebrow}</p>
          <h2 id={id} className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
            {title}
          </h2>
          {intro ? <p className="mt-4 text-lg text-slate-600">{intro}</p> : null}
        </div>
        {children}
      </div>
    </section>
  )
}

export function Hero() {
  return (
    <section
      aria-labelledby="hero-title"
      className="overflow-hidden bg-gradient-to-b from-brand-50 via-white to-slate-50 px-4 pb-20 pt-14 sm:pt-20"
    >
      <div className="mx-auto grid max-w-6xl items-center gap-14 lg:grid-cols-2">
        <div className="text-center lg:text-left">
          <p className="inline-flex items-center gap-2 rounded-full bg-white px-3 py-1 text-sm font-semibold text-brand-700 shadow-sm ring-1 ring-brand-100">
            <Icon name="sparkles" className="h-4 w-4" /> SEO on Auto Pilot for founders
          </p>
          <h1
            id="hero-title"
            className="mt-6 text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl lg:text-6xl"
          >
            Grow organic traffic without becoming an SEO expert
          </h1>
          <p className="mx-auto mt-6 max-w-xl text-lg text-slate-600 lg:mx-0">
            Rankwell finds the keywords your site can actually rank for, writes publish-ready blog posts with AI, and
            publishes them for you on Auto Pilot. Built for solo founders, startup marketers and small teams.
          </p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row lg:justify-start">
            <Link to="/signup" className="btn-primary px-6 py-3 text-base">
              Start Your Free Trial
            </Link>
            <Link to="/free-tools" className="btn-secondary px-6 py-3 text-base">
              Try the Free SEO Tools
            </Link>
          </div>
          <p className="mt-4 text-sm text-slate-600">{TRIAL_NOTE}</p>
        </div>
        <ProductMock />
      </div>
    </section>
  )
}

const PROBLEMS: Array<{ icon: IconName; title: string; text: string }> = [
  {
    icon: 'search',
    title: 'Keyword research eats your evenings',
    text: 'Spreadsheets, expensive tools and jargon, just to guess which searches might be worth writing for.',
  },
  {
    icon: 'pen',
    title: 'Writing takes days per post',
    text: 'A good SEO article takes six to ten hours. Between product, sales and support, the blog is always last.',
  },
  {
    icon: 'chart',
    title: 'You can’t tell what will ever rank',
    text: 'Most founders target keywords big brands own, publish a few posts, see nothing for months, and give up.',
  },
]

export function Problem() {
  return (
    <LandingSection
      id="problem-title"
      width="max-w-6xl"
      eyebrow="The problem"
      title="SEO works. Doing it yourself doesn’t scale."
      intro="Organic search is the cheapest channel a young company has: every post keeps bringing visitors for years. But the work it takes is exactly what founders don’t have time for."
    >
      <ul className="mt-12 grid gap-6 md:grid-cols-3">
        {PROBLEMS.map((p) => (
          <IconCard key={p.title} {...p} badgeClassName="bg-red-50 text-red-700" textClassName="text-slate-600" />
        ))}
      </ul>
    </LandingSection>
  )
}

export function VideoSection() {
  return (
    <LandingSection
      id="video-title"
      width="max-w-4xl"
      white
      eyebrow="See it in action"
      title="From topic to published post in minutes"
      intro="Watch Rankwell go from a keyword search to a post published on a blog: the real app, start to finish."
    >
      <div className="mt-10">
        <IntroVideo />
      </div>
    </LandingSection>
  )
}

const BENEFITS: Array<{ icon: IconName; title: string; text: string }> = [
  {
    icon: 'target',
    title: 'Keywords you can win',
    text: 'Real search volume and a difficulty label from Easy to Very Hard, for your country and language, so you only write what can rank.',
  },
  {
    icon: 'pen',
    title: 'Posts written for search',
    text: 'AI drafts complete blog posts around your keyword: focused title, clear headings, meta description, ready to publish.',
  },
  {
    icon: 'rocket',
    title: 'Auto Pilot publishing',
    text: 'Turn on Auto Pilot and Rankwell picks keywords, writes posts and sends them to your site through a webhook.',
  },
  {
    icon: 'globe',
    title: 'Any market',
    text: 'Research keywords in around 250 countries and dozens of languages, and write posts in the language of your customers.',
  },
]

export function Benefits() {
  return (
    <section aria-labelledby="benefits-title" className="px-4 py-20">
      <div className="mx-auto grid max-w-6xl items-center gap-12 lg:grid-cols-[1fr_2fr]">
        <div className="rounded-3xl bg-brand-700 p-8 text-center text-white lg:text-left">
          <p className="text-7xl font-extrabold tracking-tight">80%</p>
          <p className="mt-2 text-xl font-semibold">time saved on SEO content</p>
          <p className="mt-4 text-brand-50">
            What used to take a week of research and writing now takes an afternoon, or no time at all on Auto Pilot.
          </p>
        </div>
        <div>
          <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Benefits</p>
          <h2 id="benefits-title" className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
            Everything you need to rank, nothing you don’t
          </h2>
          <ul className="mt-8 grid gap-6 sm:grid-cols-2">
            {BENEFITS.map((b) => (
              <li key={b.title} className="flex gap-4">
                <span className="inline-flex h-11 w-11 flex-none items-center justify-center rounded-xl bg-brand-50 text-brand-700">
                  <Icon name={b.icon} />
                </span>
                <div>
                  <h3 className="font-semibold text-slate-900">{b.title}</h3>
                  <p className="mt-1 text-sm text-slate-600">{b.text}</p>
                </div>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  )
}

const STEPS = [
  {
    title: 'Pick a keyword, or let Auto Pilot pick',
    text: 'Search a topic and choose from keywords with real volume and difficulty, or let Auto Pilot choose the easiest relevant ones for you.',
  },
  {
    title: 'Generate with AI',
    text: 'One click turns a saved keyword into a complete, SEO-structured blog post in about two minutes.',
  },
  {
    title: 'Grow',
    text: 'Publish to your site, or let Auto Pilot publish through your webhook, and watch organic traffic compound month after month.',
  },
]

export function Steps() {
  return (
    <LandingSection
      id="steps-title"
      width="max-w-6xl"
      white
      eyebrow="How it works"
      title="Three steps to organic growth"
    >
      <NumberedSteps steps={STEPS} variant="card" className="mt-12 grid gap-8 md:grid-cols-3" />
    </LandingSection>
  )
}

const money = (n: number) => `$${n.toFixed(2)}`

export function PricingSection() {
  const premium = PLANS.find((p) => p.id === 'monthly') ?? PLANS[0]!
  const plans = [
    {
      name: 'Free Trial',
      price: money(0),
      period: 'per month',
      description: `${TRIAL_DAYS} days to see results. No credit card required.`,
      features: TRIAL_FEATURES,
      cta: 'Start Free Trial',
      popular: false,
    },
    {
      name: 'Premium',
      price: money(premium.price),
      period: premium.period,
      description: 'For founders who want a steady stream of posts.',
      features: PREMIUM_FEATURES,
      cta: 'Get Premium',
      popular: true,
    },
  ]
  return (
    <LandingSection
      id="pricing-title"
      anchor="pricing"
      width="max-w-5xl"
      eyebrow="Pricing"
      title="Simple pricing that pays for itself"
      intro="Start free. Upgrade when Rankwell is bringing you traffic."
    >
      <ul className="mt-12 grid gap-8 md:grid-cols-2">
        {plans.map((plan) => (
          <li
            key={plan.name}
            className={`relative flex flex-col rounded-3xl bg-white p-6 shadow-sm sm:p-8 ${plan.popular ? 'border-2 border-brand-600 shadow-lg' : 'border border-slate-200'}`}
            data-testid={`plan-${plan.name}`}
          >
            {plan.popular ? (
              <p className="absolute -top-3.5 left-1/2 -translate-x-1/2 rounded-full bg-brand-600 px-4 py-1 text-sm font-semibold text-white">
                Most Popular
              </p>
            ) : null}
            <h3 className="text-xl font-semibold text-slate-900">{plan.name}</h3>
            <p className="mt-1 text-sm text-slate-600">{plan.description}</p>
            <p className="mt-6 flex items-baseline gap-2">
              <span className="text-5xl font-extrabold tracking-tight text-slate-900">{plan.price}</span>
              <span className="text-slate-600">{plan.period}</span>
            </p>
            <ul className="mt-6 flex-1 space-y-3">
              {plan.features.map((feature) => (
                <li key={feature} className="flex items-start gap-3 text-slate-700">
                  <Icon name="check" className="mt-0.5 h-5 w-5 flex-none text-green-700" />
                  {feature}
                </li>
              ))}
            </ul>
            <Link to="/signup" className={`${plan.popular ? 'btn-primary' : 'btn-secondary'} mt-8 py-3 text-base`}>
              {plan.cta}
            </Link>
          </li>
        ))}
      </ul>
      <p className="mt-8 text-center text-sm text-slate-600">
        {`Premium also comes billed ${PLANS.filter((p) => p.months > 1)
          .map((p) => {
            const value = planValue(p)
            return `${p.months === 12 ? 'yearly' : `every ${p.months} months`} (${money(value.perMonthCents / 100)} a month, save ${value.savedPercent}%)`
          })
          .join(' or ')}, with the same monthly allowance.`}{' '}
        <Link to="/pricing" className="font-semibold text-brand-700 underline">
          Compare all plans
        </Link>
      </p>
    </LandingSection>
  )
}

export function Testimonials() {
  return (
    <LandingSection
      id="testimonials-title"
      width="max-w-6xl"
      white
      eyebrow="Founders on Rankwell"
      title="Less time writing, more time building"
    >
      <ul className="mt-12 grid gap-8 md:grid-cols-2">
        {TESTIMONIALS.map((t) => (
          <li key={t.name}>
            <figure className="flex h-full flex-col rounded-3xl border border-slate-200 bg-slate-50 p-6 sm:p-8">
              <blockquote className="flex-1 text-lg leading-relaxed text-slate-800">“{t.quote}”</blockquote>
              <figcaption className="mt-6 flex items-center gap-3">
                <span
                  className="flex h-11 w-11 items-center justify-center rounded-full bg-brand-100 font-bold text-brand-800"
                  aria-hidden="true"
                >
                  {t.name
                    .split(' ')
                    .map((w) => w[0])
                    .join('')}
                </span>
                <span>
                  <span className="block font-semibold text-slate-900">{t.name}</span>
                  <span className="block text-sm text-slate-600">{t.role}</span>
                </span>
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>
    </LandingSection>
  )
}

export function Faq() {
  return (
    <LandingSection id="faq-title" width="max-w-3xl" eyebrow="FAQ" title="Questions founders ask us">
      <div className="mt-10 divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white">
        {FAQS.map((f) => (
          <details key={f.question} className="group px-6 py-4">
            <summary className="flex cursor-pointer list-none items-center justify-between gap-4 font-semibold text-slate-900 [&::-webkit-details-marker]:hidden">
              <h3 className="text-base">{f.question}</h3>
              <span className="text-xl text-brand-700 transition group-open:rotate-45" aria-hidden="true">
                +
              </span>
            </summary>
            <p className="mt-3 text-slate-600">{f.answer}</p>
          </details>
        ))}
      </div>
    </LandingSection>
  )
}

export function FinalCta() {
  return (
    <section aria-labelledby="final-cta-title" className="px-4 pb-24">
      <div className="mx-auto max-w-5xl rounded-3xl bg-slate-900 px-6 py-14 text-center text-white sm:px-12">
        <h2 id="final-cta-title" className="text-3xl font-bold tracking-tight sm:text-4xl">
          Start ranking this month, not next year
        </h2>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-slate-300">
          Find your first Easy keywords, generate your first posts, and let Auto Pilot keep your blog growing while you
          build your product.
        </p>
        <Link to="/signup" className="btn mt-8 bg-white px-6 py-3 text-base text-slate-900 hover:bg-brand-50">
          Start Your Free Trial
        </Link>
        <p className="mt-4 text-sm text-slate-300">{TRIAL_NOTE}</p>
      </div>
    </section>
  )
}

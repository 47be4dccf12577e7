import type { MetaFunction } from '@remix-run/node'
import { FAQS } from '#app/features/marketing/landing-copy'
import {
  Benefits,
  Faq,
  FinalCta,
  Hero,
  PricingSection,
  Problem,
  Steps,
  Testimonials,
  VideoSection,
} from '#app/features/marketing/components/sections'
import { appUrlFrom, organizationJsonLd, seoMeta, softwareJsonLd } from '#app/features/marketing/seo'
import { faqJsonLd } from '#app/platform/seo/json-ld'
import { publicPage } from '#app/platform/http/cache'

/** Cacheable by a CDN for anonymous visitors (issue 17). */
export const handle = publicPage

export const meta: MetaFunction = ({ matches }) => {
  const appUrl = appUrlFrom(matches)
  const supportEmail = (matches.find((m) => m.id === 'root')?.data as { supportEmail?: string } | undefined)
    ?.supportEmail
  return seoMeta({
    title: 'Rankwell: Keyword Research and AI Blog Posts for Founders',
    description:
      'Find keywords you can rank for, write SEO blog posts with AI, and let Auto Pilot publish them. Save 80% of your content time. 7-day free trial, no credit card.',
    path: '/',
    appUrl,
    jsonLd: [organizationJsonLd(appUrl, supportEmail), softwareJsonLd(appUrl), faqJsonLd(FAQS)],
  })
}

export default function Index() {
  return (
    <>
      <Hero />
      <Problem />
      <VideoSection />
      <Benefits />
      <Steps />
      <PricingSection />
      <Testimonials />
      <Faq />
      <FinalCta />
    </>
  )
}

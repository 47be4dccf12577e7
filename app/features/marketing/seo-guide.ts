import { DIFFICULTY_BANDS, difficultyRange } from '#app/features/keywords/difficulty'
import { META_ADVICE, TITLE_ADVICE } from '#app/features/content/seo-advice'

/**
 * Our SEO guide for founders: one source for the signed-in guide (/how-grow) and the free ebook (/ebook).
 * Plain data (paragraphs, lists, tables, tips) so that both pages, and the ebook e-mail, render it their own way.
 */
export type GuideBlock =
  | { kind: 'p'; text: string }
  | { kind: 'h3'; text: string }
  | { kind: 'list'; ordered?: boolean; items: string[] }
  | { kind: 'tip'; title: string; text: string }
  | { kind: 'table'; caption: string; head: string[]; rows: string[][] }

export type GuideChapter = { id: string; title: string; summary: string; blocks: GuideBlock[] }

/** The difficulty bands the keyword screen shows (labels and ranges from difficulty.ts), with the guide's advice. */
const BAND_ADVICE: Record<(typeof DIFFICULTY_BANDS)[number]['label'], string> = {
  Easy: 'Your starting point. A new site with helpful posts can reach page one in weeks to a few months.',
  Medium: 'Reachable once you have 15–30 good posts and a few links. Plan them for month three onwards.',
  Hard: 'Needs real authority: strong backlinks and a cluster of posts around the topic. Build toward them.',
  'Very Hard': 'Dominated by big brands. Skip them for now and target their long-tail variants instead.',
}
export const GUIDE_DIFFICULTY_BANDS = DIFFICULTY_BANDS.map((band) => ({
  label: band.label,
  range: difficultyRange(band),
  advice: BAND_ADVICE[band.label],
}))

const [EASY, MEDIUM] = GUIDE_DIFFICULTY_BANDS as [GuideBand, GuideBand]
type GuideBand = (typeof GUIDE_DIFFICULTY_BANDS)[number]

export type Guide = { title: string; subtitle: string; intro: string[]; chapters: GuideChapter[] }

/** Reading time at about 220 words a minute. */
export function readingMinutes(guide: Guide) {
  const words = JSON.stringify(guide).split(/\s+/).length
  return Math.max(1, Math.round(words / 220))
}

export const SEO_GUIDE: Guide = {
  title: 'The Founder’s Guide to SEO',
  subtitle:
    'How to choose keywords you can win, write content that ranks, and grow organic traffic without an SEO team.',
  intro: [
    'Search engine optimisation has a reputation for being a dark art. It is not. For a young company it comes down to a handful of decisions made well and repeated patiently: pick searches you can realistically win, answer them better than anyone else, connect your pages, and give it time.',
    'This guide is the playbook we use ourselves. It is written for founders and small teams who have a product, a website and no time to become SEO experts. Read it once end to end, then come back to the chapter you need.',
  ],
  chapters: [
    {
      id: 'how-search-works',
      title: 'How search works for a young website',
      summary: 'What Google rewards, and why a new site has to play a different game than a big brand.',
      blocks: [
        {
          kind: 'p',
          text: 'Google’s job is to show the most useful page for every search. It judges usefulness from three kinds of evidence: relevance (does the page answer this exact search?), quality (is it accurate, complete, written by someone who knows the subject?) and authority (do other trustworthy sites link to it and to the site it lives on?).',
        },
        {
          kind: 'p',
          text: 'A new website has almost no authority yet. That is the single most important fact for your strategy: you cannot outrank established sites on their strongest searches, but you can beat them on specific searches they have not answered well. Each page that ranks earns visits, links and trust, which makes the next, slightly harder page easier to rank.',
        },
        {
          kind: 'list',
          items: [
            'Relevance is in your control from day one: match the search intent and cover the topic thoroughly.',
            'Quality is in your control too: first-hand experience, concrete examples, accurate details and clear structure.',
            'Authority grows slowly: from links, mentions and the accumulated performance of your pages.',
          ],
        },
        {
          kind: 'tip',
          title: 'The compounding effect',
          text: 'SEO is the one marketing channel where last year’s work still pays this year. A post written today can bring visitors every day for years. That is why the early months feel slow and later months feel easy.',
        },
      ],
    },
    {
      id: 'choosing-keywords',
      title: 'Choosing keywords you can actually win',
      summary:
        'Search volume, ranking difficulty and business value: how to weigh them, and the difficulty bands we use.',
      blocks: [
        {
          kind: 'p',
          text: 'A keyword is a search people type. For each one you want three numbers in mind: how many people search it each month (volume), how hard it is to reach page one (difficulty), and how likely a searcher is to become a customer (business value). Rankwell shows the first two for any country and language; the third only you can judge.',
        },
        { kind: 'h3', text: 'Difficulty first, volume second' },
        {
          kind: 'p',
          text: 'Founders are drawn to big-volume keywords. It is the most common mistake in SEO. A keyword with 20,000 searches and a difficulty of 85 will bring you zero visitors for a year or more; a keyword with 300 searches and a difficulty of 15 can bring you a steady stream within weeks. Ten easy keywords beat one impossible one.',
        },
        {
          kind: 'table',
          caption: 'The difficulty bands used in Rankwell',
          head: ['Band', 'Score', 'What it means for a young site'],
          rows: GUIDE_DIFFICULTY_BANDS.map((b): string[] => [b.label, b.range, b.advice]),
        },
        { kind: 'h3', text: 'Go long-tail' },
        {
          kind: 'p',
          text: 'Long-tail keywords are longer, more specific searches: “email marketing software for yoga studios” rather than “email marketing”. Each has little volume, but together they make up most of all searches, they are far easier to rank for, and the people typing them know what they want, so they convert better.',
        },
        { kind: 'h3', text: 'A simple scoring routine' },
        {
          kind: 'list',
          ordered: true,
          items: [
            'Start from your customer’s problems, not your product’s features: what would they type before they know you exist?',
            'Run each idea through keyword research for your main country and language and save the promising ones.',
            `Keep keywords in the Easy band (${EASY.range}) for your first 10–20 posts. Accept Medium (${MEDIUM.range}) only for topics that are central to your product.`,
            'Prefer keywords with at least 50–100 searches a month, but do not discard smaller ones with obvious buying intent.',
            'Ask: if someone found us through this search, could they become a customer? If not, skip it, however easy it looks.',
          ],
        },
        {
          kind: 'tip',
          title: 'Let Auto Pilot do the shortlisting',
          text: 'Auto Pilot applies exactly this routine every day: it researches keywords around your product, picks the easiest relevant ones, and writes a post for each.',
        },
      ],
    },
    {
      id: 'search-intent',
      title: 'Matching search intent',
      summary: 'Why the same topic needs a guide for one search and a comparison for another.',
      blocks: [
        {
          kind: 'p',
          text: 'Search intent is what the searcher wants to get done. Google has learned it from billions of clicks, and it will only rank pages that fit it. Before writing, decide which of the four intents a keyword has:',
        },
        {
          kind: 'table',
          caption: 'The four kinds of search intent',
          head: ['Intent', 'The searcher wants to…', 'Example', 'Page that ranks'],
          rows: [
            ['Informational', 'learn or solve a problem', 'how to reduce churn in saas', 'A how-to guide or explainer'],
            [
              'Commercial',
              'compare options before buying',
              'best crm for freelancers',
              'A comparison or “best of” list',
            ],
            ['Transactional', 'buy or sign up now', 'invoice software free trial', 'A product or pricing page'],
            ['Navigational', 'reach a specific site', 'notion login', 'That brand’s own page'],
          ],
        },
        {
          kind: 'p',
          text: 'The quickest check is to search the keyword yourself and look at the first page. If the top results are all step-by-step guides, write a better step-by-step guide, not a product page. If they are all lists of tools, write a list and be honest about where your product fits.',
        },
        {
          kind: 'tip',
          title: 'Informational posts feed your funnel',
          text: 'Most of your blog will target informational searches. End every such post with a natural next step: a related product feature, a free tool, or a trial. Readers who learned something from you are the warmest leads you will get.',
        },
      ],
    },
    {
      id: 'content-that-ranks',
      title: 'Writing content that ranks',
      summary: 'Titles, structure and depth: the on-page work that decides whether a post reaches page one.',
      blocks: [
        {
          kind: 'p',
          text: 'A post ranks when it is the most complete, most helpful answer to its search. Length is a side effect of that, not a target. Here is the structure that works for most blog posts:',
        },
        {
          kind: 'list',
          items: [
            TITLE_ADVICE.sentence,
            META_ADVICE.sentence,
            'An introduction that names the reader’s problem and answers the main question in the first few sentences.',
            'Three to five main sections with descriptive H2 headings that follow the order in which a reader thinks about the problem.',
            'Specifics: numbers, examples, screenshots, steps, mistakes to avoid. Generic advice is what every competing page already has.',
            'A conclusion that sums up and gives one clear next step.',
          ],
        },
        { kind: 'h3', text: 'Show experience' },
        {
          kind: 'p',
          text: 'Google’s quality guidelines put weight on experience, expertise, authoritativeness and trust. In practice: write from what you have seen with your customers, name the author, cite sources for claims, and keep facts current. An AI draft is a starting point; your own examples and opinions are what make it rank and convert.',
        },
        { kind: 'h3', text: 'One keyword, one page' },
        {
          kind: 'p',
          text: 'Give every keyword exactly one page. Two posts on the same search compete with each other and usually both lose. Near-identical keywords (“crm for freelancers” and “freelancer crm”) belong in the same post.',
        },
        {
          kind: 'tip',
          title: 'Use the free tools',
          text: 'Our free blog title generator scores titles by how well they use the available length, and the outline generator gives you a 3–5 section structure to start from.',
        },
      ],
    },
    {
      id: 'internal-links',
      title: 'Internal links and topic clusters',
      summary: 'How connecting your own pages spreads authority and tells Google what you are an expert in.',
      blocks: [
        {
          kind: 'p',
          text: 'Internal links are links from one page of your site to another. They help visitors find more of your content, help Google discover and understand your pages, and pass authority from your strongest pages to your newer ones. They are the cheapest ranking factor you control.',
        },
        {
          kind: 'list',
          items: [
            'Organise posts into clusters: one broad pillar page (for example “SaaS onboarding”) and several specific posts around it (“onboarding email sequence”, “activation metrics”, …).',
            'Link every cluster post to its pillar and the pillar to every cluster post.',
            'Link from new posts to related older ones, and go back to add links from older posts to the new one.',
            'Use descriptive anchor text (“our guide to onboarding emails”), not “click here”.',
            'Link from your blog to the product pages that solve the problem the post describes.',
            'Avoid orphan pages: every page you want to rank should be reachable through at least two or three internal links.',
          ],
        },
        {
          kind: 'tip',
          title: 'A five-minute habit',
          text: 'Each time you publish, add two links to the new post from existing posts. After a year, your site will be densely connected without ever doing a big “internal linking project”.',
        },
      ],
    },
    {
      id: 'technical-basics',
      title: 'The technical basics',
      summary: 'The short list of technical work that matters for a small site, and what you can safely ignore.',
      blocks: [
        {
          kind: 'p',
          text: 'You do not need a technical SEO audit to get started. You need Google to be able to find, crawl and render your pages quickly on a phone. Check these once, then forget about them:',
        },
        {
          kind: 'list',
          items: [
            'Verify your site in Google Search Console and submit your sitemap.xml.',
            'Make sure important pages are not blocked by robots.txt or a “noindex” tag.',
            'Use one canonical address per page (https, with or without www, but always the same).',
            'Keep pages fast and mobile-friendly: compress images, avoid heavy scripts, and check Core Web Vitals in Search Console.',
            'Give every page a unique title and meta description.',
            'Use clean, descriptive URLs such as /blog/saas-onboarding-emails.',
          ],
        },
        {
          kind: 'p',
          text: 'What you can ignore at this stage: keyword density, exact word counts, meta keywords, and most “SEO score” plugins. They measure proxies; Google measures whether searchers are satisfied.',
        },
      ],
    },
    {
      id: 'patience',
      title: 'Patience: how long ranking takes',
      summary: 'Realistic timelines, and the publishing rhythm that gets you through the quiet first months.',
      blocks: [
        {
          kind: 'p',
          text: 'The honest answer to “how long until SEO works?” is three to six months for the first meaningful traffic on a new site, and six to twelve months for competitive topics. Most founders give up in month two, just before it starts working. Knowing the curve in advance is half the battle.',
        },
        {
          kind: 'table',
          caption: 'What to expect on a new site',
          head: ['When', 'What usually happens'],
          rows: [
            ['Weeks 1–4', 'Pages get discovered and indexed. Impressions appear in Search Console, clicks are rare.'],
            ['Months 2–3', 'Easy long-tail posts start reaching page one. The first organic sign-ups arrive.'],
            ['Months 4–6', 'Impressions and clicks grow week on week. Some posts climb from page two to page one.'],
            ['Months 6–12', 'Medium-difficulty keywords become reachable. Organic becomes a dependable channel.'],
          ],
        },
        {
          kind: 'list',
          items: [
            'Publish consistently: two to four good posts a week beats a burst of thirty followed by silence.',
            'Judge a post after three months, not three days.',
            'Keep going through the quiet phase; the curve is flat before it bends.',
          ],
        },
        {
          kind: 'tip',
          title: 'Consistency without the effort',
          text: 'Auto Pilot publishes on a steady cadence through your webhook, so your site keeps growing even in the weeks you are busy shipping product.',
        },
      ],
    },
    {
      id: 'measuring',
      title: 'Measuring what matters',
      summary: 'The handful of numbers to watch, how often, and what to do when a post stalls.',
      blocks: [
        {
          kind: 'p',
          text: 'Google Search Console is the source of truth for search. It shows, per page and per query, how often you appeared (impressions), how often people clicked (clicks and click-through rate) and your average position. Your analytics tool shows what those visitors did next: sign-ups, trials, purchases.',
        },
        {
          kind: 'table',
          caption: 'What to look at, and when',
          head: ['How often', 'Look at', 'Act on'],
          rows: [
            [
              'Weekly',
              'Impressions and clicks for the whole site',
              'Is the trend up? If flat for a month, publish more Easy-band posts.',
            ],
            [
              'Monthly',
              'Queries with many impressions at position 8–20',
              'Improve those posts: add sections, examples and internal links. Page two is the cheapest traffic you can win.',
            ],
            [
              'Monthly',
              'Pages with a low click-through rate',
              'Rewrite the title and meta description to promise a clearer benefit.',
            ],
            [
              'Quarterly',
              'Sign-ups and revenue from organic visitors',
              'Double down on the topics that bring customers, not just visits.',
            ],
          ],
        },
        {
          kind: 'p',
          text: 'Refresh before you rewrite: updating a post that is already close to page one (new facts, a better introduction, more depth, a new date) usually pays off faster than writing a new one.',
        },
      ],
    },
    {
      id: 'common-mistakes',
      title: 'Seven mistakes that keep founders off page one',
      summary: 'The traps we see most often, and what to do instead.',
      blocks: [
        {
          kind: 'list',
          ordered: true,
          items: [
            'Chasing volume. A 20,000-search keyword you cannot rank for is worth nothing. Win the Easy ones first; volume follows authority.',
            'Writing about your product instead of your customer’s problem. Nobody searches for your feature names. They search for the pain your product removes.',
            'Publishing in bursts. Thirty posts in a month followed by silence looks worse to Google, and to readers, than two posts every week for a year.',
            'Ignoring intent. A sales page will not rank for a “how to” search, and a tutorial will not rank for “best X software”. Look at the results page before you write.',
            'Leaving posts unconnected. A post with no internal links pointing to it is hard for Google to find and gets none of your site’s authority.',
            'Never updating. Posts decay as competitors publish. A yearly refresh of your best pages protects the traffic you already earned.',
            'Judging too early. Deleting or rewriting a post after two weeks resets its clock. Give every page three months before you decide it failed.',
          ],
        },
        {
          kind: 'tip',
          title: 'Turn traffic into customers',
          text: 'Rankings are a means, not the goal. Give every post one clear next step that fits the reader’s stage: a free tool or checklist for early-stage readers, a trial or demo for readers comparing options. Measure sign-ups per post, not only visits.',
        },
      ],
    },
    {
      id: 'ninety-day-plan',
      title: 'Your 90-day plan',
      summary: 'Everything above as a checklist you can start on today.',
      blocks: [
        {
          kind: 'list',
          ordered: true,
          items: [
            'Day 1: verify your site in Google Search Console and submit your sitemap.',
            'Week 1: list the 10 problems your customers have before they find you; research keywords for each and save 30 ideas.',
            `Week 1: keep the Easy ones (difficulty ${EASY.range}) with clear business value; group them into two or three clusters.`,
            'Weeks 2–4: publish two to four posts a week, starting with the keywords closest to your product. Link each to its cluster and to a product page.',
            'Weeks 5–8: keep publishing; write one pillar page per cluster; add internal links from older posts to newer ones.',
            'Weeks 9–12: in Search Console, find queries at positions 8–20 and improve those posts; rewrite titles with low click-through rates.',
            'Day 90: review sign-ups from organic search, pick the best-performing cluster, and plan the next 90 days around it, now including Medium keywords.',
          ],
        },
        {
          kind: 'p',
          text: 'That is the whole method. It is simple, it is not fast, and it works. The founders who win at SEO are not the ones with the cleverest tricks; they are the ones who keep publishing useful pages for the searches they can win.',
        },
      ],
    },
  ],
}

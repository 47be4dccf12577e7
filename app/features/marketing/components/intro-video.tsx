import { useState } from 'react'
import { TRIAL_DAYS } from '#app/features/billing/plans'
import { Icon } from './icons'

/**
 * The intro video, self-hosted, loaded only on request: the page shows a poster drawn in HTML and nothing is
 * downloaded until the visitor presses play (then the <video> replaces the poster). Without JavaScript the play
 * control is a plain link to the video file, which the browser plays itself.
 */
export const INTRO_VIDEO = {
  src: '/intro.webm',
  type: 'video/webm',
  captions: '/intro.vtt',
  title: 'From a keyword to a published post',
  duration: '0:48',
}

/**
 * What the video shows (it has no sound), scene by scene: its captions are exactly these lines, in this order
 * (scripts/record-intro.ts writes them, intro-video.test.ts checks public/intro.vtt), listed here for everyone who
 * can't or won't play it.
 */
export const SCENES = [
  'Search a topic: Rankwell finds keywords a young site can rank for',
  'Pick a keyword and press Create Post',
  'Connect your blog once: WordPress, Ghost or Webflow',
  'Rankwell writes the post: read it, edit it if you like',
  'Publish it to your blog in one click',
  'Published: the post is live on your blog',
  'Or switch Auto Pilot on: it picks keywords, writes and publishes for you',
  `Start your free ${TRIAL_DAYS}-day trial. No credit card required.`,
]

export function IntroVideo() {
  const [playing, setPlaying] = useState(false)
  return (
    <div className="overflow-hidden rounded-2xl border border-slate-200 bg-slate-900 shadow-xl">
      <div className="relative aspect-video">
        {playing ? (
          <video className="h-full w-full" controls autoPlay playsInline preload="auto" aria-label={INTRO_VIDEO.title}>
            <source src={INTRO_VIDEO.src} type={INTRO_VIDEO.type} />
            <track kind="captions" src={INTRO_VIDEO.captions} srcLang="en" label="English" />
            <a href={INTRO_VIDEO.src}>Download the intro video</a>
          </video>
        ) : (
          <a
            href={INTRO_VIDEO.src}
            onClick={(event) => {
              event.preventDefault()
              setPlaying(true)
            }}
            className="group absolute inset-0 flex flex-col items-center justify-center gap-4 bg-gradient-to-br from-brand-700 via-brand-800 to-slate-900 text-white"
            data-testid="intro-video-play"
          >
            <span className="flex h-20 w-20 items-center justify-center rounded-full bg-white text-brand-700 shadow-lg transition group-hover:scale-105">
              <Icon name="play" className="ml-1 h-9 w-9" />
            </span>
            <span className="text-lg font-semibold">
              Play video: {INTRO_VIDEO.title}{' '}
              <span className="font-normal text-brand-100">({INTRO_VIDEO.duration})</span>
            </span>
          </a>
        )}
      </div>
      <details className="bg-white px-5 py-3 text-sm text-slate-700">
        <summary className="cursor-pointer font-medium text-slate-800">What the video shows</summary>
        <ol className="mt-2 list-decimal space-y-1 pl-5">
          {SCENES.map((scene) => (
            <li key={scene}>{scene}</li>
          ))}
        </ol>
      </details>
    </div>
  )
}

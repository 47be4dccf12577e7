import { useState } from 'react'
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
  title: 'Rankwell in under a minute',
  duration: '0:53',
}

/** What the video shows (it has no sound): the same text as its captions, for everyone who can't or won't play it. */
const SCENES = [
  'Find keywords a young site can rank for',
  'Pick a title that uses the space search results give it',
  'Get the structure of the post',
  'Plan your next 90 days of SEO',
  'Or let Auto Pilot research, write and publish every post for you',
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

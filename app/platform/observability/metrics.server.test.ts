import { describe, expect, it } from 'vitest'
import { matchedRouteId, methodLabel, routeLabel, statusLabel, type RouteManifest } from './metrics.server'

/** A slice of a server build's route manifest (ids and paths as Remix's flat routes make them). */
const routes: RouteManifest = {
  root: { id: 'root', path: '' },
  'routes/_index': { id: 'routes/_index', parentId: 'root', index: true },
  'routes/pricing': { id: 'routes/pricing', parentId: 'root', path: 'pricing' },
  'routes/blogpost.$id': { id: 'routes/blogpost.$id', parentId: 'root', path: 'blogpost/:id' },
  'routes/blogpost.$id.download': {
    id: 'routes/blogpost.$id.download',
    parentId: 'routes/blogpost.$id',
    path: 'download',
  },
  'routes/api.blogpost.$id': { id: 'routes/api.blogpost.$id', parentId: 'root', path: 'api/blogpost/:id' },
  'routes/api.$': { id: 'routes/api.$', parentId: 'root', path: 'api/*' },
  'routes/$': { id: 'routes/$', parentId: 'root', path: '*' },
}

describe('routeLabel', () => {
  it('labels a path by the id of the deepest route that answers it', () => {
    expect(matchedRouteId(routes, '/')).toBe('routes/_index')
    expect(matchedRouteId(routes, '/pricing')).toBe('routes/pricing')
    expect(matchedRouteId(routes, '/blogpost/0b0e…')).toBe('routes/blogpost.$id')
    expect(matchedRouteId(routes, '/blogpost/x/download')).toBe('routes/blogpost.$id.download')
    expect(matchedRouteId(routes, '/api/blogpost/anything')).toBe('routes/api.blogpost.$id')
    expect(matchedRouteId(routes, '/api/unknown/deep')).toBe('routes/api.$')
    expect(routeLabel({ path: '/blogpost/123', status: 302, routes })).toBe('routes/blogpost.$id')
  })

  it('gives refusals, 404s, assets and static files fixed labels, never the path', () => {
    expect(routeLabel({ path: '/pricing', status: 403, refused: true, routes })).toBe('(refused)')
    expect(routeLabel({ path: '/x-1', status: 413, refused: true, routes })).toBe('(refused)')
    expect(routeLabel({ path: '/pricing', status: 404, routes })).toBe('(not found)')
    expect(routeLabel({ path: '/assets/entry-abc.js', status: 200, staticFile: true, routes })).toBe('/assets/*')
    expect(routeLabel({ path: '/favicon.svg', status: 200, staticFile: true, routes })).toBe('(static)')
    expect(routeLabel({ path: '/anything', status: 200, routes: {} })).toBe('(not found)')
  })
})

describe('methodLabel and statusLabel', () => {
  it('bounds methods to the known ones and statuses to known codes or their class', () => {
    expect(methodLabel('get')).toBe('GET')
    expect(methodLabel('PROPFIND')).toBe('OTHER')
    expect(methodLabel(`X${'A'.repeat(100)}`)).toBe('OTHER')
    expect(statusLabel(200)).toBe('200')
    expect(statusLabel(413)).toBe('413')
    expect(statusLabel(418)).toBe('4xx')
    expect(statusLabel(599)).toBe('5xx')
    expect(statusLabel(999)).toBe('other')
  })
})

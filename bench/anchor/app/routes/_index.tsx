// The splat route does not match "/" (a root splat leaves the index to an index route): the home page is this one.
export { default, loader, meta } from './$'

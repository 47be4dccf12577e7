import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { AiNotConfiguredError, AiOutputError } from '#app/platform/ai/openai.server'
import { failureReason, isFinalError } from '#app/features/content/posts-pipeline.server'
import { slowDownMs } from './generate-post.processor'

const apiError = (status: number, code: string | null, headers: Record<string, string> = {}) =>
  OpenAI.APIError.generate(status, { error: { message: 'x', type: 't', code } }, 'x', new Headers(headers))

describe('slowDownMs: which model errors pause the queue, and for how long', () => {
  it('honours retry-after-ms and retry-after on a 429', () => {
    expect(slowDownMs(apiError(429, 'rate_limit_exceeded', { 'retry-after-ms': '1500' }), 0)).toBe(1500)
    expect(slowDownMs(apiError(429, 'rate_limit_exceeded', { 'retry-after': '3' }), 0)).toBe(3000)
    expect(slowDownMs(apiError(429, 'rate_limit_exceeded', { 'retry-after': '3600' }), 0)).toBe(60_000)
  })
  it('backs off exponentially without a hint, for 429s and timeouts', () => {
    expect(slowDownMs(apiError(429, 'rate_limit_exceeded'), 0)).toBe(1000)
    expect(slowDownMs(apiError(429, 'rate_limit_exceeded'), 3)).toBe(8000)
    expect(slowDownMs(new OpenAI.APIConnectionTimeoutError(), 1)).toBe(2000)
    expect(slowDownMs(new OpenAI.APIConnectionTimeoutError(), 20)).toBe(60_000)
  })
  it('does not pause for an exhausted account, server errors or other failures', () => {
    expect(slowDownMs(apiError(429, 'insufficient_quota'), 0)).toBeNull()
    expect(slowDownMs(apiError(500, null), 0)).toBeNull()
    expect(slowDownMs(new AiOutputError('bad'), 0)).toBeNull()
    expect(slowDownMs(new Error('db down'), 0)).toBeNull()
  })
})

describe('final errors and readable reasons', () => {
  it('stops at once for errors no retry can fix', () => {
    expect(isFinalError(apiError(400, 'invalid_request_error'))).toBe(true)
    expect(isFinalError(apiError(401, 'invalid_api_key'))).toBe(true)
    expect(isFinalError(apiError(404, 'model_not_found'))).toBe(true)
    expect(isFinalError(apiError(429, 'insufficient_quota'))).toBe(true)
    expect(isFinalError(new AiNotConfiguredError())).toBe(true)
  })
  it('retries the rest', () => {
    expect(isFinalError(apiError(429, 'rate_limit_exceeded'))).toBe(false)
    expect(isFinalError(apiError(500, null))).toBe(false)
    expect(isFinalError(apiError(408, null))).toBe(false)
    expect(isFinalError(new AiOutputError('bad'))).toBe(false)
    expect(isFinalError(new Error('db down'))).toBe(false)
  })
  it('says what went wrong in words a user understands', () => {
    expect(failureReason(apiError(400, null))).toBe('The AI service rejected the request.')
    expect(failureReason(apiError(401, null))).toBe('The AI service refused our credentials.')
    expect(failureReason(apiError(503, null))).toBe('The AI service did not answer after several attempts.')
    expect(failureReason(new AiOutputError('bad'))).toBe('The AI model gave an answer we could not use, several times.')
    expect(failureReason(new Error('boom'))).toBe('Something went wrong while writing the post.')
  })
})

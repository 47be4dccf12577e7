/**
 * Accounts: users, their browser and API sessions, sign-in codes, single-use account links and help requests.
 */
import { sql } from 'drizzle-orm'
import {
  type AnyPgColumn,
  bigint,
  boolean,
  index,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { createdAt, updatedAt, id } from './columns'

export const users = pgTable(
  'users',
  {
    id: id(),
    email: text('email').notNull(),
    name: text('name').notNull().default(''),
    passwordHash: text('password_hash'),
    googleSub: text('google_sub'),
    website: text('website'),
    marketSegment: text('market_segment'),
    productService: text('product_service'),
    countryCode: text('country_code'),
    countryName: text('country_name'),
    languageCode: text('language_code'),
    languageName: text('language_name'),
    onboardingComplete: boolean('onboarding_complete').notNull().default(false),
    /** Issue 13: when the owner proved the address (verification link, or Google's verified e-mail). */
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    /** Issue 35: the owner hid the 'Get started' checklist before finishing it (null: shown until every step is done). */
    gettingStartedHiddenAt: timestamp('getting_started_hidden_at', { withTimezone: true }),
    /** Issue 36: the optional columns the user shows on /keywords (ids of KEYWORD_COLUMNS); null: the defaults. */
    keywordColumns: text('keyword_columns').array(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    uniqueIndex('users_google_sub_idx').on(t.googleSub),
  ],
)

/** The user a row belongs to; the row goes when the user's account is deleted. */
export const ownerId = () =>
  uuid('user_id')
    .notNull()
    .references((): AnyPgColumn => users.id, { onDelete: 'cascade' })

/** Browser sessions (cookie holds the id) and API sessions (Bearer tokens reference the id). */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: ownerId(),
    kind: text('kind', { enum: ['web', 'api'] })
      .notNull()
      .default('web'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    userAgent: text('user_agent'),
    /** Issue 13: shown on /profile (the IP only as a prefix: /24 or /48). */
    ipPrefix: text('ip_prefix'),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
)

/** Single-use codes minted by our own Google callback, redeemed at /oauth-callback. Stored hashed. */
export const oauthCodes = pgTable('oauth_codes', {
  codeHash: text('code_hash').primaryKey(),
  userId: ownerId(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: createdAt(),
})

/** Single-use account links (e-mail verification, password reset), stored hashed (issue 13). */
export const accountTokens = pgTable(
  'account_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: ownerId(),
    purpose: text('purpose', { enum: ['verify_email', 'reset_password'] }).notNull(),
    /** The address the link was sent to: a verification only counts for the address it was sent to. */
    email: text('email').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('account_tokens_user_idx').on(t.userId, t.purpose)],
)

export const helpRequests = pgTable('help_requests', {
  id: id(),
  userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
  email: text('email').notNull(),
  question: text('question').notNull(),
  emailedAt: timestamp('emailed_at', { withTimezone: true }),
  createdAt: createdAt(),
})

/**
 * Issue 34: the optional second factor (RFC 6238 TOTP). One row per user: `confirmedAt` null while the user is
 * setting it up (the secret shown, no code entered yet); set once a code was accepted, which turns it on.
 * `secretEncrypted` is the base32 secret encrypted with ENCRYPTION_KEY (platform/security/crypto.server.ts);
 * `lastUsedStep` is the time step of the last accepted code, so that no code is accepted twice.
 */
export const userTotp = pgTable('user_totp', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretEncrypted: text('secret_encrypted').notNull(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
  createdAt: createdAt(),
})

/** Issue 34: single-use recovery codes for the second factor, stored hashed (SHA-256); a new set replaces the old. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: id(),
    userId: ownerId(),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('recovery_codes_user_code_idx').on(t.userId, t.codeHash)],
)

/**
 * Personal API keys (issue 38): `Authorization: Bearer <key>` beside session tokens. Only the SHA-256 of the whole key
 * is stored (keys are long random strings, so a fast hash is enough); `prefix` is the public start shown on /profile.
 * Scopes: 'read' | 'write' | 'publish'. A revoked key is refused at once (revoked_at set; the row is kept for the list).
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: id(),
    userId: ownerId(),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    secretHash: text('secret_hash').notNull(),
    scopes: text('scopes').array().notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    /** The last caller's IP as a prefix (/24 or /48), as sessions keep it. */
    lastUsedIpPrefix: text('last_used_ip_prefix'),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('api_keys_secret_idx').on(t.secretHash), index('api_keys_user_idx').on(t.userId)],
)

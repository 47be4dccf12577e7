// Seeds the demo account (idempotent). Used by `npm run dev`; `npm run db:seed` runs it alone.
import { seedDemo } from './lib/seed'

const { email, password } = await seedDemo()
console.log(`[rankwell] demo account: ${email} / ${password}`)
process.exit(0)

/** Every new account starts with a free trial of this many days (its subscription row is written with the user). */
export const TRIAL_DAYS = 7

/** The ebook form's copy (spec section 8), shared by the page, its browser-side failure and the API. */
export const LEAD_MESSAGES = {
  success: 'Success! Check your email for the ebook link.',
  failed: 'Something went wrong. Please try again later.',
  thrown: 'Error: Unable to submit your email. Please try again.',
}

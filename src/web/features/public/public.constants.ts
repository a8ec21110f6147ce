/** Spec section 9: where apps can be deployed. */
export const DEPLOYMENT_COUNTRIES = ['Ghana', 'Nigeria', 'Kenya', 'Eswatini', 'Burundi'];

/** The spec's public contact failure message (section 8). */
export const CONTACT_FAILED_MESSAGE = 'Failed to send contact info';

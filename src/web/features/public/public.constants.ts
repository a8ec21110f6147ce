/** Where apps can be deployed. */
export const DEPLOYMENT_COUNTRIES = ['Ghana', 'Nigeria', 'Kenya', 'Eswatini', 'Burundi'];

/** The public contact form's failure message. */
export const CONTACT_FAILED_MESSAGE = 'Failed to send contact info';

export const PROVIDERS_PATH = '/shortcode-providers';
export const CATALOGUE_PATH = '/provision-shortcode';
export const BUY_PATH = '/buy-shortcode';
export const MY_SHORTCODES_PATH = '/my-shortcodes';
export const connectPath = (uuid: string) => `/connect-shortcode/${encodeURIComponent(uuid)}`;

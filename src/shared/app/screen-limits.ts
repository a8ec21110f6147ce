/** 160 characters is the safe screen on many networks; 182 is the USSD protocol maximum. */
export const DEFAULT_SCREEN_LIMIT = 160;
export const MAX_SCREEN_LIMIT = 182;
/** Below this a page cannot hold a line of text and its `98. More`. */
export const MIN_SCREEN_LIMIT = 60;

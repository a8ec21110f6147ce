export * from './accounts';
export * from './messages';
export * from './apps';
export * from './events';
export * from './transactions';
export * from './custom-actions';
export * from './messaging';
export * from './shortcodes';

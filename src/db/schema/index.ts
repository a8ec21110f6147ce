export * from './accounts';
export * from './messages';
export * from './apps';
export * from './events';

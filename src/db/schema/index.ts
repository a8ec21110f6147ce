export * from './accounts';
export * from './messages';
export * from './apps';
export * from './events';
export * from './transactions';

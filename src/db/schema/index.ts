export * from './accounts';
export * from './messages';

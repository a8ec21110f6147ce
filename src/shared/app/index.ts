export * from './operators';
export * from './switch-operation.schema';
export * from './input-validation.schema';
export * from './actions.schema';
export * from './menu.schema';
export * from './app-version.schema';
export * from './javascript-syntax';
export * from './menu.validation';

export * from './model';
export * from './validate';
export * from './render';
export * from './parse';
export * from './defaults';
export * from './errors';

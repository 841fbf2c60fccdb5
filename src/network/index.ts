export * from './model';
export * from './assemble';
export * from './validate';
export * from './render';
export * from './parse';
export * from './errors';

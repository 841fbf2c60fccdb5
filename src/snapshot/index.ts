export * from './model';
export * from './render';
export * from './parse';
export * from './kinds';
export * from './policy';

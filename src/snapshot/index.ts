export * from './model';
export * from './render';
export * from './parse';
export * from './kinds';
export * from './policy';
export * from './qcow2';

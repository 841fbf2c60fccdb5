export * from './model';
export * from './validate';
export * from './render';
export * from './parse';
export * from './errors';
export * from './domain-type';
export * from './reprovision';
export * from './summary';

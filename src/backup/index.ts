export * from './model';
export * from './manifest';
export * from './chain';
export * from './xml';
export * from './age';

export * from './seed';
export type * from './cloud-config';
export type * from './network';

export * from './model';
export * from './map';
export * from './volume';
export * from './cloudinit-seed';
export * from './ignition';
export * from './domain';
export * from './network';
export * from './snapshot';

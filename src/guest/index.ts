export * from './console-lines';
export * from './provisioning';

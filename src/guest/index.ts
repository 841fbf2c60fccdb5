export * from './console-lines';
export * from './provisioning';
export * from './wait-progress';

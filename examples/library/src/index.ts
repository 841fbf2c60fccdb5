export * from './web-fleet';

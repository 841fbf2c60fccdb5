export * from './model';
export * from './choose';

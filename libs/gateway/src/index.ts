export * from './gateway.module';

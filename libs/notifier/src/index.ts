export { NotifierModule } from './notifier.module';

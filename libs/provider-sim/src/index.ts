export {
  DEFAULT_REFERENCE_DATE,
  SIM_MARKERS,
  SimulatedProvider,
  simulatedCommentCount,
} from './simulated-provider';

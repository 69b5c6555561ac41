import { Module, type DynamicModule } from '@nestjs/common';
import { AnalysisModule } from '@analyst/analysis';
import { GatewayModule } from '@analyst/gateway';
import { IngestModule } from '@analyst/ingest';
import { LedgerModule } from '@analyst/ledger';
import { NotifierModule } from '@analyst/notifier';
import { SamplingModule } from '@analyst/sampling';
import {
  ObservabilityModule,
  PlatformModule,
  type AnalystConfig,
  type PlatformOverrides,
} from '@analyst/platform';
import type { Logger } from 'pino';
import { DemoSeeder } from './demo-seeder';

/** Every service module in one process on the embedded adapters. */
@Module({})
export class StandaloneModule {
  /** `logger`: main's, made before the app so a failed start is logged in the same shape. */
  static forRoot(config: AnalystConfig, overrides: PlatformOverrides = {}, logger?: Logger): DynamicModule {
    return {
      module: StandaloneModule,
      imports: [
        PlatformModule.forRoot(config, overrides),
        ObservabilityModule.forRoot({ service: 'standalone', level: config.LOG_LEVEL, logger }),
        GatewayModule,
        LedgerModule,
        IngestModule,
        AnalysisModule,
        SamplingModule,
        NotifierModule,
      ],
      providers: [DemoSeeder],
      exports: [DemoSeeder],
    };
  }
}

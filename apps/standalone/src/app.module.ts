import { Module, type DynamicModule } from '@nestjs/common';
import { AnalysisModule } from '@analyst/analysis';
import { GatewayModule } from '@analyst/gateway';
import { IngestModule } from '@analyst/ingest';
import { LedgerModule } from '@analyst/ledger';
import { SamplingModule } from '@analyst/sampling';
import {
  ObservabilityModule,
  PlatformModule,
  type AnalystConfig,
  type PlatformOverrides,
} from '@analyst/platform';
import { DemoSeeder } from './demo-seeder';

/** Every service module in one process on the embedded adapters. */
@Module({})
export class StandaloneModule {
  static forRoot(config: AnalystConfig, overrides: PlatformOverrides = {}): DynamicModule {
    return {
      module: StandaloneModule,
      imports: [
        PlatformModule.forRoot(config, overrides),
        ObservabilityModule.forRoot({ service: 'standalone', level: config.LOG_LEVEL }),
        GatewayModule,
        LedgerModule,
        IngestModule,
        AnalysisModule,
        SamplingModule,
      ],
      providers: [DemoSeeder],
      exports: [DemoSeeder],
    };
  }
}

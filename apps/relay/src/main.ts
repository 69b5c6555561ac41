import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { runService } from '@analyst/platform';
import { RelayRunner } from './relay-runner';

@Module({ providers: [RelayRunner] })
class RelayModule {}

/** The event relay: event store `$all` → Kafka category topics, one active replica at a time. */
void runService({ service: 'relay', imports: () => [RelayModule] });

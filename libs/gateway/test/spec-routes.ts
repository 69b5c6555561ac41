import { Controller, Delete, Get, Module, Post, Query } from '@nestjs/common';
import { Principal, RateClass, RequireScopes } from '@analyst/platform';

/**
 * Stand-ins for the routes later services will own, mounted at the spec's paths with no gateway
 * decorators, so the guard applies the contract's table to them. `/blob` returns `size` bytes.
 */
@Controller()
class SpecRoutesController {
  @Post('analyses') createAnalysis(@Principal() p: Principal) {
    return { data: { route: 'POST /analyses', teamId: p.targetTeamId } };
  }
  @Get('analyses') listAnalyses() {
    return { data: [] };
  }
  @Get('analyses/:analysisId') getAnalysis() {
    return { data: {} };
  }
  @Get('analyses/:analysisId/comments') analysisComments() {
    return { data: [] };
  }
  @Get('posts') posts() {
    return { data: [] };
  }
  @Get('posts/:postId/analysis') postAnalysis() {
    return { data: {} };
  }
  @Get('posts/:postId/analysis/comments') postComments() {
    return { data: [] };
  }
  @Get('posts/:postId/metrics') postMetrics() {
    return { data: {} };
  }
  @Get('content/jobs/:jobId') job() {
    return { data: {} };
  }
  @Get('content/jobs') jobs() {
    return { data: [] };
  }
  @Post('content/posts/add') addPosts() {
    return { data: {} };
  }
  @Post('content/posts/refresh') refresh() {
    return { data: {} };
  }
  @Post('content/accounts/add') addAccounts() {
    return { data: {} };
  }
  @Get('collections') collections() {
    return { data: [] };
  }
  @Get('collections/:collectionId') collection() {
    return { data: {} };
  }
  @Get('collections/:collectionId/posts') collectionPosts() {
    return { data: [] };
  }
  @Get('insights') insights() {
    return { data: {} };
  }
  @Get('saved-analyses') saved() {
    return { data: [] };
  }
  @Post('webhooks') createWebhook() {
    return { data: {} };
  }
  @Get('webhooks') webhooks() {
    return { data: [] };
  }
  @Get('webhooks/:webhookId') webhook() {
    return { data: {} };
  }
  @Delete('webhooks/:webhookId') deleteWebhook() {
    return { data: {} };
  }
  @Post('webhooks/:webhookId/rotate-secret') rotateWebhookSecret() {
    return { data: {} };
  }
  @Post('webhooks/:webhookId/ping') pingWebhook() {
    return { data: {} };
  }
  @Get('webhooks/:webhookId/deliveries') webhookDeliveries() {
    return { data: [] };
  }
  @Get('events') events() {
    return { data: [] };
  }
  @Get('blob') blob(@Query('size') size: string) {
    return Buffer.alloc(Number(size), 97);
  }
  @Get('declared')
  @RequireScopes('posts:write', 'team:read')
  @RateClass('content_refresh')
  declared() {
    return { data: { declared: true } };
  }
}

@Module({ controllers: [SpecRoutesController] })
export class SpecRoutesModule {}

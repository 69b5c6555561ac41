import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiRoute, Principal } from '@analyst/gateway';
import { SamplingService } from '../sampling.service';

/** GET /analyses/{analysisId}/comments: scopes analyses:read + comments:read, class analysis_comments (gateway). */
@Controller('analyses')
export class AnalysisCommentsController {
  constructor(private readonly sampling: SamplingService) {}

  @Get(':analysisId/comments')
  @ApiRoute('GET /analyses/{analysisId}/comments')
  sample(@Principal() principal: Principal, @Param('analysisId') analysisId: string, @Query() query: Record<string, unknown>) {
    return this.sampling.analysisSample(principal.targetTeamId, analysisId, query);
  }
}

/** GET /posts/{postId}/analysis/comments: scopes posts:read + comments:read, class comments (gateway). */
@Controller('posts')
export class PostCommentsController {
  constructor(private readonly sampling: SamplingService) {}

  @Get(':postId/analysis/comments')
  @ApiRoute('GET /posts/{postId}/analysis/comments')
  sample(@Principal() principal: Principal, @Param('postId') postId: string, @Query() query: Record<string, unknown>) {
    return this.sampling.postSample(principal.targetTeamId, postId, query);
  }
}

import { Inject, Injectable } from '@nestjs/common';
import type { CollectionType } from '@analyst/contracts';
import { ContentError, type JobCollection } from '@analyst/domain-content';
import {
  CLOCK,
  ID_GENERATOR,
  READ_STORE,
  type Clock,
  type IdGenerator,
  type ReadStore,
} from '@analyst/platform';
import { findCollection, findCollectionsByName } from '../queries/collections';
import type { CollectionRefDto } from '../request/content-request.dto';
import { requesterContext, type Requester } from '../request/requester';
import type { WriteFence } from '../request/write-fence';
import { IntakeError } from '../request/intake-error';
import { CollectionCommands } from '../commands/collection-commands';

export interface PlannedCollection {
  collectionId: string;
  name: string;
  type: CollectionType;
  parentId: string | null;
}

export interface ResolvedCollections {
  collections: JobCollection[];
  /** Campaigns and groups named in the request that do not exist yet; created only once the request is funded. */
  toCreate: PlannedCollection[];
}

/**
 * Step 3 of the add path: every reference resolved before any credit is touched. By id: an active
 * collection of the team (others are "not found"). By name, as the spec words it: "A name is matched
 * case-insensitively against active collections: one match reuses it; none creates a campaign
 * (`created: true`); more than one returns 409 `collection_name_ambiguous` with `error.candidates`."
 * So the name alone decides the match: `type` and `parentId` neither narrow it nor pick among several
 * matches (a type-narrowed miss would create a second collection of the same name, after which the
 * bare name is ambiguous for good). They only shape what is created when nothing matches: a campaign,
 * or a group inside the campaign `parentId` when `type: group`. A single match is reused whatever its
 * type; the job's `collections[]` echoes its real id, name and type with `created: false`.
 */
@Injectable()
export class CollectionsResolver {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly collectionCommands: CollectionCommands,
  ) {}

  async resolve(teamId: string, refs: CollectionRefDto[]): Promise<ResolvedCollections> {
    const collections: JobCollection[] = [];
    const toCreate: PlannedCollection[] = [];
    const add = (c: JobCollection) => {
      if (!collections.some((x) => x.id === c.id)) collections.push(c);
    };
    for (const [index, ref] of refs.entries()) {
      if ((ref.id === undefined) === (ref.name === undefined)) {
        throw new IntakeError('invalid_request', `collections[${index}]: give either id or name`);
      }
      const resolved =
        ref.id !== undefined ? await this.byId(teamId, index, ref) : await this.byName(teamId, index, ref);
      if (!('create' in resolved)) {
        add(resolved);
        continue;
      }
      // Named twice in one request (any case): the first reference plans it, the second reuses it.
      const { name, type } = resolved.create;
      if (toCreate.some((p) => p.name.toLowerCase() === name.toLowerCase())) continue;
      const plan: PlannedCollection = {
        collectionId: this.ids.next('col_'),
        name,
        type,
        parentId: ref.parentId ?? null,
      };
      toCreate.push(plan);
      collections.push({ id: plan.collectionId, name, type, created: true });
    }
    return { collections, toCreate };
  }

  /** A reference by id: the team's collection, as it is. */
  private async byId(teamId: string, index: number, ref: CollectionRefDto): Promise<JobCollection> {
    if (ref.type !== undefined || ref.parentId !== undefined)
      throw new IntakeError(
        'invalid_request',
        `collections[${index}]: type and parentId go with name, not id`,
      );
    const found = await findCollection(this.store, teamId, ref.id!);
    if (!found)
      throw new ContentError('collection_not_found', `collections[${index}]: collection ${ref.id} not found`);
    return { id: found.id, name: found.name, type: found.type, created: false };
  }

  /** A reference by name: the one collection of that name, or what to create when there is none. */
  private async byName(
    teamId: string,
    index: number,
    ref: CollectionRefDto,
  ): Promise<JobCollection | { create: { name: string; type: CollectionType } }> {
    const name = ref.name!.trim();
    if (!name) throw new IntakeError('invalid_request', `collections[${index}].name must not be blank`);
    const type: CollectionType = ref.type ?? (ref.parentId ? 'group' : 'campaign');
    if (type === 'group' && !ref.parentId)
      throw new IntakeError(
        'invalid_request',
        `collections[${index}]: a group needs parentId (a campaign id)`,
      );
    if (type === 'campaign' && ref.parentId)
      throw new IntakeError(
        'invalid_request',
        `collections[${index}]: a campaign has no parentId; use type group`,
      );
    if (ref.parentId) await this.checkParent(teamId, index, ref.parentId);
    const matches = await findCollectionsByName(this.store, teamId, name);
    if (matches.length > 1) {
      throw new IntakeError(
        'collection_name_ambiguous',
        `collection name "${name}" matches ${matches.length} collections; pass one of their ids`,
        matches.map((m) => m.id),
      );
    }
    if (matches.length === 1)
      return { id: matches[0].id, name: matches[0].name, type: matches[0].type, created: false };
    return { create: { name, type } };
  }

  /** A group's parent must be a campaign of the team. */
  private async checkParent(teamId: string, index: number, parentId: string): Promise<void> {
    const parent = await findCollection(this.store, teamId, parentId);
    if (!parent)
      throw new ContentError(
        'collection_not_found',
        `collections[${index}]: parent collection ${parentId} not found`,
      );
    if (parent.type !== 'campaign')
      throw new IntakeError(
        'invalid_request',
        `collections[${index}]: parent collection ${parentId} is not a campaign`,
      );
  }

  /** Creates the planned collections, recording each append on the request's fence. */
  async create(requester: Requester, planned: PlannedCollection[], fence: WriteFence): Promise<void> {
    for (const p of planned) {
      const parent = p.parentId ? await findCollection(this.store, requester.teamId, p.parentId) : null;
      const outcome = await this.collectionCommands.handle(
        p.collectionId,
        {
          type: 'CreateCollection',
          data: {
            collectionId: p.collectionId,
            teamId: requester.teamId,
            name: p.name,
            collectionType: p.type,
            parentId: p.parentId,
            parent: parent ? { collectionId: parent.id, type: parent.type } : null,
            createdVia: requester.isDemo ? 'demo' : 'api',
            at: this.clock.now().toISOString(),
          },
        },
        requesterContext(requester),
      );
      fence.record(outcome);
    }
  }
}

import type { TeamAnalysisSettingsChanged, TeamCreated, CollectionCreated } from '@analyst/contracts';
import { DEFAULT_ROLLUP_SETTINGS, type RollupSettings } from '@analyst/domain-analysis';
import type { Doc, Projector, Recorded } from '@analyst/platform';
import { collectionEntryOf, type CollectionEntry } from '../team-index/catalog-entries';

export const CATALOG_TEAMS = 'analysis_teams';

/** Settings in force from a log position on. */
export interface SettingsFrom extends RollupSettings {
  position: number;
}

/** A team's analysis settings over time and its collections. */
export interface CatalogTeamDoc extends Doc {
  /** Every change, in log order: a version scored at position p was scored with the last one before p. */
  settings: SettingsFrom[];
  collections: CollectionEntry[];
}

type CatalogTeamEvent = TeamCreated | TeamAnalysisSettingsChanged | CollectionCreated;

/** The settings in force at a log position (the defaults before any change). */
export function settingsAt(history: readonly SettingsFrom[], position: number): RollupSettings {
  let found: RollupSettings = DEFAULT_ROLLUP_SETTINGS;
  for (const s of history) if (s.position < position) found = s;
  return { scoreVersion: found.scoreVersion, engagementWeight: found.engagementWeight };
}

export function evolveCatalogTeam(
  doc: CatalogTeamDoc | null,
  event: Recorded<CatalogTeamEvent>,
  id: string,
): CatalogTeamDoc {
  const team = doc ?? { _id: id, settings: [], collections: [] };
  switch (event.type) {
    case 'TeamAnalysisSettingsChanged':
      return {
        ...team,
        settings: [
          ...team.settings,
          {
            position: event.position,
            scoreVersion: event.data.scoreVersion,
            engagementWeight: event.data.engagementWeight,
          },
        ],
      };
    case 'CollectionCreated': {
      const entry = collectionEntryOf(event.data, event.metadata.occurredAt);
      return { ...team, collections: [...team.collections.filter((c) => c.id !== entry.id), entry] };
    }
    default:
      return team;
  }
}

/** `analysis_teams`: per team, its settings history and collections (gateway's and ingest's streams). */
export const catalogTeamsProjector: Projector<CatalogTeamDoc, CatalogTeamEvent> = {
  name: 'analysis-teams',
  collection: CATALOG_TEAMS,
  eventTypes: ['TeamCreated', 'TeamAnalysisSettingsChanged', 'CollectionCreated'],
  documentIds: (event) => [event.data.teamId],
  evolve: evolveCatalogTeam,
};

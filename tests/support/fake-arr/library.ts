/**
 * In-memory library of the fake arr: movies or series, their files, episodes, history and the commands received.
 * Ids are assigned like the arr does (1, 2, 3 per table). Tests fill it through FakeArr's add* methods.
 */
import { lstat, unlink } from 'node:fs/promises';
import type {
  CommandResource,
  Episode,
  EpisodeFile,
  HistoryRecord,
  Movie,
  MovieFile,
  Series,
} from '../../../appliance/arrs/arr-v3.types.js';

export interface ReceivedCommand extends CommandResource {
  body: Record<string, unknown>;
  /** 'api' when POSTed to /command, 'redownload' when the fake queued it itself after history/failed. */
  source: 'api' | 'redownload';
}

export interface BlocklistEntry {
  historyId: number;
  downloadId?: string;
  sourceTitle?: string;
  /** Sonarr: the episodes the release was for (all of a season pack's). */
  episodeIds?: number[];
}

export type ParseAnswer = { movieId: number } | { seriesId: number; episodeIds: number[] };

export class FakeLibrary {
  readonly movies = new Map<number, Movie>();
  readonly movieFiles = new Map<number, MovieFile>();
  readonly series = new Map<number, Series>();
  readonly episodes = new Map<number, Episode>();
  readonly episodeFiles = new Map<number, EpisodeFile>();
  readonly history = new Map<number, HistoryRecord & { failed?: boolean }>();
  readonly commands: ReceivedCommand[] = [];
  readonly blocklist: BlocklistEntry[] = [];
  /** File paths the fake removed from disk (symlinks only) when their record was deleted. */
  readonly unlinked: string[] = [];
  readonly parseAnswers = new Map<string, ParseAnswer>();
  private readonly next = new Map<string, number>();

  id(table: string): number {
    const n = (this.next.get(table) ?? 0) + 1;
    this.next.set(table, n);
    return n;
  }

  movieView(m: Movie): Movie {
    const file = [...this.movieFiles.values()].find((f) => f.movieId === m.id);
    return { ...m, hasFile: !!file, movieFileId: file?.id ?? 0, ...(file ? { movieFile: { ...file } } : {}) };
  }

  /** What DELETE moviefile/episodefile does in the arr: remove the file on disk when it is there, then the row. */
  async removeFromDisk(path: string): Promise<void> {
    try {
      // Only a symlink is removed: the fake must never delete content a test put behind it.
      if ((await lstat(path)).isSymbolicLink()) {
        await unlink(path);
        this.unlinked.push(path);
      }
    } catch {
      /* absent on this machine: the arr deletes the row anyway */
    }
  }

  queueCommand(body: Record<string, unknown>, source: ReceivedCommand['source']): ReceivedCommand {
    const cmd: ReceivedCommand = { id: this.id('command'), name: String(body.name), status: 'queued', body, source };
    this.commands.push(cmd);
    return cmd;
  }
}

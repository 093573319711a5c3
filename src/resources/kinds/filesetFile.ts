// Files of the file sets named in the scope, one metadata read (op 8) per path. A path that
// cannot be read is an error of that one resource, not of the whole kind.
import { FILESET_PERMISSIONS } from '../../api/vocabularies.js';
import type { FilesetFile } from '../../api/types.js';
import { excluded, selectIds } from '../discovery.js';
import { ownerPart, ownerSchema, ownersFromListing, userOwner } from '../people.js';
import { principalSchema } from '../sharing.js';
import type { CollectedResource, DocumentPart, ResourceKind } from '../types.js';

/** The owner of the file's set: the file-set search's `owner` (a user id string), read once per run. */
const owner = ownerPart('searchFilesets', async (api, r, once) => {
  const find = await ownersFromListing(once, 'searchFilesets', () => api.searchFilesets(), (f) => f.id, (f) => userOwner(f.owner, `searchFilesets: file set ${f.id}`));
  return find(String(r.doc.filesetId), 'file set');
});

/** Resource id of a fileset file: `<filesetId>:<path>` (what waivers and fingerprints use). */
export function filesetFileId(filesetId: string, path: string): string {
  return `${filesetId}:${path}`;
}

/** The set's access list (a GET per set, memoised: every file of a set shares it). */
const filesetAccess: DocumentPart = {
  name: 'filesetAccess',
  operation: 'getFilesetAccess',
  async load(api, r) {
    const answer = await api.getFilesetAccess(String(r.doc.filesetId));
    return answer.fileSetAccess.map((e) => ({ type: e.entityType, id: String(e.entityId), name: null, permission: e.permission }));
  },
};

export const filesetFile: ResourceKind = {
  name: 'filesetFile',
  description: 'Files named per file set in scope.filesets, with their metadata and filesetId.',
  live: true,
  completeWith: 'fileset.admin',
  inputs: {
    scope: {
      key: 'filesets',
      shape: 'paths',
      description: 'file',
      exists: (api, setId, path) => api.getFileByPath(setId, path ?? ''),
      discovery: 'searchFilesets',
    },
  },
  operations: ['getFileByPath'],
  documentSchema: {
    type: 'object',
    required: ['id', 'path', 'filesetId'],
    properties: {
      id: { type: 'string', description: 'the file id (UUID)' },
      filesetId: { type: 'string' },
      path: { type: 'string' },
      name: { type: ['string', 'null'] },
      fileType: { type: ['string', 'null'], description: 'TEXT, FILE, AUDIO, DIRECTORY seen' },
      contentType: { type: ['string', 'null'] },
      size: { type: ['integer', 'null'] },
      created: { type: ['string', 'integer', 'null'], description: 'ISO 8601 date-time (epoch milliseconds accepted)' },
      createdBy: { type: ['integer', 'string', 'null'] },
      hash: { type: ['string', 'null'] },
      hashAlgorithm: { type: ['string', 'null'], description: 'seen as SHA_256_HEX' },
      downloadUrl: { type: ['string', 'null'], description: 'null in every public sample' },
      connectorKey: { type: ['string', 'null'], description: 'null in every public sample' },
      indexStatus: { type: ['string', 'null'], description: 'null or QUEUED seen' },
      indexReason: { type: ['string', 'null'] },
      owner: { ...ownerSchema, description: `the file set's owner; ${ownerSchema.description}` },
      filesetAccess: { type: 'array', items: principalSchema({ permission: { enum: [...FILESET_PERMISSIONS] } }), description: "the file set's access (one read per set): OWNER, EDIT, READ or NONE per user or group" },
    },
  },
  parts: { owner, filesetAccess },
  async *collect(ctx) {
    const discovery = ctx.scope.discover.filesets;
    const seen = new Set<string>();
    // Discovered file sets: every file of each (directories left out), its metadata from the listing.
    if (discovery) {
      const { ids: sets } = await selectIds([], discovery, () => ctx.api.searchFilesets(), (f) => f.id);
      for (const filesetId of sets) {
        for await (const page of ctx.api.searchFilesetFiles(filesetId)) {
          for (const file of page) {
            const id = filesetFileId(filesetId, file.path);
            if (file.fileType === 'DIRECTORY' || excluded(discovery, id) || seen.has(id)) continue;
            seen.add(id);
            yield { kind: 'filesetFile', id, name: file.path, doc: { ...file, filesetId }, source: null };
          }
        }
      }
    }
    const jobs: { filesetId: string; path: string; read: Promise<FilesetFile> }[] = [];
    for (const [filesetId, paths] of Object.entries(ctx.scope.paths.filesets ?? {})) {
      for (const path of paths) {
        if (seen.has(filesetFileId(filesetId, path))) continue;
        const read = ctx.api.getFileByPath(filesetId, path);
        read.catch(() => {}); // handled when yielded; avoids an unhandled rejection meanwhile
        jobs.push({ filesetId, path, read });
      }
    }
    // The reads run concurrently (the client's limiter bounds them); results keep scope order.
    for (const { filesetId, path, read } of jobs) {
      const id = filesetFileId(filesetId, path);
      const base: CollectedResource = { kind: 'filesetFile', id, name: path, doc: { id, path, filesetId }, source: null };
      try {
        const meta = await read;
        yield { ...base, doc: { ...meta, filesetId } };
      } catch (err) {
        yield { ...base, loadError: err as Error };
      }
    }
  },
};

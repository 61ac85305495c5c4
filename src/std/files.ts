// The file tools (TOOLS.md §12): fs.read, fs.write, fs.delete, fs.list, each confined to the root
// folder. Every path goes through resolveInside (tools/sandbox.ts), the very check behind
// ToolContext.resolvePath: no absolute path, no `..` out of the root, no symbolic link (on the path
// or at its end, or on the parent of a file about to be created) that leads outside. Sizes are
// capped by maxBodyBytes both ways, checked before anything is read into memory or written.
import { lstat, mkdir, open, readdir, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { resolveInside } from '../tools/sandbox.js';
import type { DefinedTool } from '../tools/forms.js';
import type { JsonObject } from '../values/json.js';
import { overCap, stdTool, StdToolError, type StdSettings } from './common.js';

const ROOT_NAME = 'the root folder (--root, or root in createStdTools)';

/** A path argument as an absolute path inside the root, or a StdToolError saying why not. */
function inside(settings: StdSettings, relative: string): string {
  try {
    return resolveInside(settings.root, relative, ROOT_NAME);
  } catch (error) {
    throw new StdToolError((error as Error).message, 'PATH_OUTSIDE_ROOT');
  }
}

/** The path as the script should see it: relative to the root, with forward slashes. */
function shown(settings: StdSettings, absolute: string): string {
  return path.relative(settings.root, absolute).split(path.sep).join('/') || '.';
}

/** A file system error as a message a script author can act on. */
function fsError(error: unknown, relative: string): StdToolError {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  switch (code) {
    case 'ENOENT':
      return new StdToolError(`"${relative}" does not exist in the root folder`, 'NOT_FOUND');
    case 'EISDIR':
      return new StdToolError(`"${relative}" is a folder, not a file`, 'IS_A_FOLDER');
    case 'ENOTDIR':
      return new StdToolError(`"${relative}": a part of this path is a file, not a folder`, 'NOT_A_FOLDER');
    case 'EACCES':
    case 'EPERM':
      return new StdToolError(`"${relative}": permission denied`, 'PERMISSION_DENIED');
    default:
      return new StdToolError(`"${relative}": ${(error as Error)?.message ?? String(error)}`, code ?? 'FILE_ERROR');
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const ENCODING = { type: 'string', enum: ['utf8', 'base64'], default: 'utf8', description: 'utf8 for text; base64 for any bytes' };
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const CHUNK_BYTES = 256 * 1024;

async function readFile(settings: StdSettings, args: JsonObject) {
  const relative = args.path as string;
  const file = inside(settings, relative);
  let bytes: Buffer;
  try {
    // Looked at before opening: opening a named pipe would wait for a writer for good.
    const info = await stat(file);
    if (info.isDirectory()) throw new StdToolError(`"${relative}" is a folder: list it with fs.list`, 'IS_A_FOLDER');
    if (!info.isFile()) throw new StdToolError(`"${relative}" is not a regular file`, 'NOT_A_FILE');
    if (info.size > settings.maxBodyBytes) throw overCap(`"${relative}" (${info.size} bytes)`, settings.maxBodyBytes);
    const handle = await open(file, 'r');
    try {
      // Read in chunks up to the end, not `size` bytes: a file that grew past the cap since stat
      // is refused, never cut short.
      const chunks: Buffer[] = [];
      let length = 0;
      for (;;) {
        const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, settings.maxBodyBytes + 1 - length));
        const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
        if (bytesRead === 0) break;
        length += bytesRead;
        if (length > settings.maxBodyBytes) throw overCap(`"${relative}"`, settings.maxBodyBytes);
        chunks.push(chunk.subarray(0, bytesRead));
      }
      bytes = Buffer.concat(chunks, length);
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw error instanceof StdToolError ? error : fsError(error, relative);
  }
  if (args.encoding === 'base64') return { content: bytes.toString('base64'), size: bytes.length };
  try {
    return { content: utf8.decode(bytes), size: bytes.length };
  } catch {
    throw new StdToolError(`"${relative}" is not UTF-8 text: read it with encoding "base64"`, 'NOT_TEXT');
  }
}

async function writeOne(settings: StdSettings, args: JsonObject) {
  const relative = args.path as string;
  const content = args.content as string;
  let bytes: Buffer;
  if (args.encoding === 'base64') {
    const compact = content.replace(/\s+/g, '');
    if (compact.length % 4 === 1 || !BASE64.test(compact)) throw new StdToolError('content is not base64 text', 'BAD_CONTENT');
    bytes = Buffer.from(compact, 'base64');
  } else {
    bytes = Buffer.from(content, 'utf8');
  }
  if (bytes.length > settings.maxBodyBytes) throw overCap(`the content (${bytes.length} bytes)`, settings.maxBodyBytes);
  const file = inside(settings, relative);
  try {
    // The parent folders are created inside the root: resolveInside judged the path by its
    // deepest existing part, so every folder made here is new and below it.
    await mkdir(path.dirname(file), { recursive: true });
    const existing = await stat(file).catch(() => undefined);
    if (existing?.isDirectory()) throw new StdToolError(`"${relative}" is a folder, not a file`, 'IS_A_FOLDER');
    if (existing !== undefined && !existing.isFile()) throw new StdToolError(`"${relative}" is not a regular file`, 'NOT_A_FILE');
    await writeFile(file, bytes, { flag: args.append === true ? 'a' : 'w' });
    const info = await stat(file);
    return { path: shown(settings, file), size: info.size };
  } catch (error) {
    throw error instanceof StdToolError ? error : fsError(error, relative);
  }
}

async function deleteOne(settings: StdSettings, args: JsonObject) {
  const relative = args.path as string;
  const file = inside(settings, relative);
  try {
    const info = await lstat(file);
    if (info.isDirectory()) throw new StdToolError(`"${relative}" is a folder: fs.delete removes files only`, 'IS_A_FOLDER');
    await unlink(file);
    return { path: shown(settings, file), size: info.size };
  } catch (error) {
    throw error instanceof StdToolError ? error : fsError(error, relative);
  }
}

async function listFolder(settings: StdSettings, args: JsonObject) {
  const relative = args.path as string;
  const folder = inside(settings, relative);
  try {
    const entries = await readdir(folder, { withFileTypes: true });
    const listed = await Promise.all(
      entries.map(async (entry) => {
        const kind = entry.isFile() ? 'file' : entry.isDirectory() ? 'folder' : entry.isSymbolicLink() ? 'link' : 'other';
        let size: number | null = null;
        if (kind === 'file') {
          try {
            size = (await lstat(path.join(folder, entry.name))).size;
          } catch {
            // removed meanwhile: listed without a size
          }
        }
        return { name: entry.name, kind, size };
      }),
    );
    return listed.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (error) {
    throw fsError(error, relative);
  }
}

const PATH = { type: 'string', description: 'a path relative to the root folder, e.g. data/prices.csv' };

export function fileTools(settings: StdSettings): DefinedTool[] {
  return [
    stdTool({
      id: 'file-read',
      name: 'fs.read',
      description: 'Reads a file inside the root folder: its content (UTF-8 text, or base64 with encoding "base64") and its size in bytes.',
      category: 'file',
      confirm: 'read',
      keywords: ['file', 'read', 'open', 'load', 'text', 'content'],
      input: { type: 'object', properties: { path: PATH, encoding: ENCODING }, required: ['path'], additionalProperties: false },
      output: { type: 'object', properties: { content: { type: 'string' }, size: { type: 'number' } }, required: ['content', 'size'] },
      run: (args) => readFile(settings, args),
    }),
    stdTool({
      id: 'file-write',
      name: 'fs.write',
      description: 'Writes a file inside the root folder (creating its folders), replacing it, or adding to its end with append: true. Returns its path and size in bytes.',
      category: 'file',
      confirm: 'write',
      keywords: ['file', 'write', 'save', 'create', 'store', 'append'],
      input: {
        type: 'object',
        properties: {
          path: PATH,
          content: { type: 'string', description: 'what to write' },
          encoding: { ...ENCODING, description: 'utf8 when content is text; base64 when it is base64 of bytes' },
          append: { type: 'boolean', default: false, description: 'add to the end instead of replacing' },
        },
        required: ['path', 'content'],
        additionalProperties: false,
      },
      output: { type: 'object', properties: { path: { type: 'string' }, size: { type: 'number' } }, required: ['path', 'size'] },
      run: (args) => writeOne(settings, args),
    }),
    stdTool({
      id: 'file-delete',
      name: 'fs.delete',
      description: 'Removes a file inside the root folder (not a folder). Returns its path and the size it had.',
      category: 'file',
      confirm: 'destructive',
      keywords: ['file', 'delete', 'remove', 'unlink', 'erase'],
      input: { type: 'object', properties: { path: PATH }, required: ['path'], additionalProperties: false },
      output: { type: 'object', properties: { path: { type: 'string' }, size: { type: 'number' } }, required: ['path', 'size'] },
      run: (args) => deleteOne(settings, args),
    }),
    stdTool({
      id: 'dir-list',
      name: 'fs.list',
      description: 'Lists a folder inside the root folder: a list of { name, kind, size }, sorted by name; kind is "file", "folder", "link" or "other", size is in bytes for files and null otherwise.',
      category: 'file',
      confirm: 'read',
      keywords: ['folder', 'directory', 'list', 'files', 'ls', 'entries'],
      input: { type: 'object', properties: { path: { ...PATH, default: '.', description: 'a folder relative to the root folder (default: the root itself)' } }, additionalProperties: false },
      output: {
        type: 'array',
        items: {
          type: 'object',
          properties: { name: { type: 'string' }, kind: { enum: ['file', 'folder', 'link', 'other'] }, size: { type: ['number', 'null'] } },
          required: ['name', 'kind', 'size'],
        },
      },
      run: (args) => listFolder(settings, args),
    }),
  ];
}

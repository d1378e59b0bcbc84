import fs from 'node:fs';
import fsp from 'node:fs/promises';

/**
 * Modes of everything the service writes under its data directory: the database, secrets and binaries
 * are nobody else's business on the machine. Set explicitly rather than through the process umask,
 * which would change the mode of everything else the process creates too.
 */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIRECTORY_MODE = 0o700;

/**
 * Creates a directory (and missing parents) 0700. An existing directory keeps its mode: the data
 * directory may be one the operator prepared, and the files inside are private either way.
 */
export function makePrivateDirectory(directory: string): void {
  fs.mkdirSync(directory, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
}

export async function makePrivateDirectoryAsync(directory: string): Promise<void> {
  await fsp.mkdir(directory, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
}

/**
 * Makes sure `file` exists with mode 0600: created so when missing, tightened when an earlier version
 * left it readable to others. Answers false when the file does not exist and `create` is false.
 */
export function makePrivateFile(file: string, options: { create: boolean }): boolean {
  if (options.create) fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
  try {
    fs.chmodSync(file, PRIVATE_FILE_MODE);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

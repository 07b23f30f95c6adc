// File errors in words: what a user can act on ("permission denied"), never a bare errno code.

const REASONS: Readonly<Record<string, string>> = {
  EACCES: "permission denied",
  EPERM: "permission denied",
  EISDIR: "it is a directory",
  ENOTDIR: "a part of the path is a file, not a directory",
  EEXIST: "it exists and is not a directory",
  EROFS: "the file system is read-only",
  ENOSPC: "the disk is full",
  EFBIG: "the file is larger than this system lets it be",
  EDQUOT: "the disk quota is used up",
  ENAMETOOLONG: "the name is too long",
  ELOOP: "it goes through too many symbolic links",
  EBUSY: "it is busy",
  ENOENT: "it does not exist",
};

/** The reason an fs call failed, in words when it is one of the common ones (else its code). */
export function fileErrorReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code !== undefined && REASONS[code] !== undefined) return REASONS[code];
  return code ?? (error instanceof Error ? error.message : String(error));
}

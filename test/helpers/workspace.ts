// A throwaway directory holding a config, so CLI tests never write into the repository.
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface Workspace {
  dir: string;
  write(name: string, content: string): Promise<void>;
  read(name: string): Promise<string>;
  path(name: string): string;
}

export async function createWorkspace(files: Record<string, string> = {}): Promise<Workspace> {
  const dir = await mkdtemp(join(tmpdir(), "notiform-test-"));
  const workspace: Workspace = {
    dir,
    write: (name, content) => writeFile(join(dir, name), content),
    read: (name) => readFile(join(dir, name), "utf8"),
    path: (name) => join(dir, name),
  };
  for (const [name, content] of Object.entries(files)) await workspace.write(name, content);
  return workspace;
}

export const WORKFLOW_SHIPPED = "64f1c0ffee0000000000a001";
export const WORKFLOW_RESET = "64f1c0ffee0000000000a002";
export const TENANT_1 = "650000000000000000000001";
export const TENANT_2 = "650000000000000000000002";

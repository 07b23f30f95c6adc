// A throwaway directory holding a config, so CLI tests never write into the repository.
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

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
    // Nested names ("teams/a.yaml") get their directories.
    write: async (name, content) => {
      await mkdir(dirname(join(dir, name)), { recursive: true });
      await writeFile(join(dir, name), content);
    },
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

/** The start most CLI tests share: the guard, two topics and one notification group. */
export const ACME_BASE = `version: 1
organization: Acme Inc
topics:
  - key: order-updates
    name: Order updates
  - key: newsletter
    name: Newsletter
notificationGroups:
  - key: billing
    name: Billing
`;

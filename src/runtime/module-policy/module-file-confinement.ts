/** The tool module file itself must be a file of the project under strict (spec §10). */
import type { ModulePolicy } from "./module-policy";
import { refusedWhileLoading } from "./policy-violation";
import { isInsideDirectory } from "../../config/inside-directory";
import { realProjectDir } from "./project-confinement";

export function assertInsideProject(policy: ModulePolicy, shownPath: string, realPath: string): void {
  const projectDir = realProjectDir(policy.projectDir);
  if (isInsideDirectory(projectDir, realPath)) return;
  throw refusedWhileLoading(shownPath, "project_dir", `the module resolves to ${realPath}, outside the project directory ${projectDir}`);
}

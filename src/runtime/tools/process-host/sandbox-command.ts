/**
 * The command that starts a tool module's child under `sandbox: "process"`: bubblewrap
 * (`bwrap`) around the luma binary itself, which serves as the child when it finds
 * LUMA_TOOL_HOST=1 in its environment (child-entry.ts).
 *
 * What the child sees (docs/security.md "The process tier"):
 * - a root of its own, empty but for: the luma binary (read-only, at its own path), the
 *   shared libraries it links (/lib, /lib64, /usr/lib read-only), the module's files — the
 *   module, its relative imports, its packages' directories, the package.json files that
 *   say how they load — read-only at their own paths; `allow_paths` (read-only, or writable
 *   with `write: true`); a private /tmp, a minimal /dev, and a /proc of its own pid namespace;
 * - no network namespace of the host (only loopback, down) unless `allow_network: true`,
 *   then the host's network and the files a resolver and TLS need (/etc/resolv.conf, hosts,
 *   ssl certificates);
 * - an empty environment but for what `allow_env` lets through (and, per call, the
 *   credential a called tool declares) — handed to bwrap as its own environment, never as
 *   `--setenv` arguments, which every user of the host could read in /proc/<pid>/cmdline;
 * - every namespace unshared (user, ipc, pid, net, uts, cgroup), all capabilities dropped,
 *   no new privileges (bwrap sets PR_SET_NO_NEW_PRIVS), killed with its parent;
 * - no programs (no /bin, /usr/bin) unless `allow_spawn: true`, and then only inside it.
 *
 * The child then sets its own limits and seccomp filter (child-confinement.ts). Not
 * `--new-session`: setsid made the child's start-up measurably slower on a loaded machine,
 * and the terminal injection it prevents (TIOCSTI) is refused by the filter instead; the
 * SIGINT a terminal's Ctrl-C sends the whole process group is ignored instead (`sh -c trap`).
 */
import { existsSync, lstatSync, readlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ModulePolicy } from "../../module-policy/module-policy";

const SYSTEM_LIBRARIES = ["/lib", "/lib64", "/usr/lib", "/usr/lib64"];
const PROGRAM_DIRS = ["/bin", "/usr/bin", "/sbin", "/usr/sbin", "/usr/libexec", "/usr/share"];
const NETWORK_FILES = ["/etc/resolv.conf", "/etc/hosts", "/etc/nsswitch.conf", "/etc/ssl", "/etc/ca-certificates", "/usr/share/ca-certificates"];

/** Where the programs the mechanism needs are. */
export interface Mechanism {
  bwrap: string;
  /** Starts bwrap with SIGINT ignored (sandboxArgv). */
  sh: string;
}

const findProgram = (name: string): string | undefined => {
  for (const dir of (process.env.PATH ?? "/usr/bin:/bin").split(":")) {
    const candidate = join(dir || ".", name);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
};

/**
 * The mechanism on this host, or a sentence naming what is missing (not Linux, no bwrap).
 * Whether bwrap can make its namespaces is learnt from the first child: when one
 * dies before it loaded its module, `namespaceProblem` says whether that is why.
 */
export function findMechanism(): Mechanism | string {
  if (process.platform !== "linux") return `it needs Linux (this is ${process.platform})`;
  const bwrap = findProgram("bwrap");
  if (!bwrap) return "bubblewrap ('bwrap') is not installed (Debian/Ubuntu: apt-get install bubblewrap)";
  const sh = findProgram("sh");
  if (!sh) return "no 'sh' on PATH";
  return { bwrap, sh };
}

/** Why bwrap cannot create its namespaces here (user namespaces off…), or undefined when it can. */
export function namespaceProblem({ bwrap }: Mechanism): string | undefined {
  const probe = Bun.spawnSync([bwrap, "--ro-bind", "/", "/", "--unshare-all", "--cap-drop", "ALL", "--die-with-parent", "true"], { stdout: "ignore", stderr: "pipe" });
  if (probe.exitCode !== 0) {
    const why = new TextDecoder().decode(probe.stderr).trim().split("\n")[0] || `exit code ${probe.exitCode}`;
    return `bubblewrap cannot create its namespaces here (${why}); user namespaces may be disabled`;
  }
  return undefined;
}

/** How the child is started: the compiled binary itself, or (from source, in development) bun with the CLI's entry. */
export function childProgram(): { argv: string[]; binds: string[] } {
  const compiled = Bun.main.startsWith("/$bunfs/") || Bun.main.startsWith("B:/~BUN/");
  if (compiled) return { argv: [process.execPath], binds: [process.execPath] };
  const srcRoot = join(import.meta.dir, "../../..");
  const repo = dirname(srcRoot);
  return { argv: [process.execPath, join(srcRoot, "cli/main.ts")], binds: [process.execPath, repo] };
}

export interface SandboxInput {
  mechanism: Mechanism;
  policy: ModulePolicy;
  /** Files and directories the module loads from, read-only at their own paths. */
  view: string[];
  /** The child's program; `childProgram()` when absent (the benchmark names dist/luma). */
  child?: { argv: string[]; binds: string[] };
}

export function sandboxArgv({ mechanism, policy, view, child = childProgram() }: SandboxInput): string[] {
  // The sandbox shares luma's process group (no setsid: see the header), so a Ctrl-C at the
  // terminal would reach bwrap and kill the child mid-call. Ignored signals stay ignored
  // across exec: bwrap and the child ignore SIGINT, and luma aborts the calls in flight
  // through their AbortSignal, as in-process.
  const args: string[] = [mechanism.sh, "-c", 'trap "" INT; exec "$@"', "sh", mechanism.bwrap];
  // No --clearenv/--setenv: values on a command line are visible to every user of the host
  // (/proc/<pid>/cmdline). bwrap is started with exactly the child's environment instead (childEnv).
  args.push("--unshare-all", "--cap-drop", "ALL", "--die-with-parent");
  if (policy.allowNetwork) args.push("--share-net");
  args.push(...libraryMounts());
  args.push("--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp");
  for (const path of child.binds) args.push("--ro-bind", path, path);
  for (const path of view) args.push("--ro-bind", path, path);
  if (policy.allowNetwork) for (const file of NETWORK_FILES) args.push("--ro-bind-try", file, file);
  if (policy.allowSpawn) for (const dir of PROGRAM_DIRS) args.push("--ro-bind-try", dir, dir);
  for (const extra of policy.allowPaths) args.push(extra.write ? "--bind" : "--ro-bind", extra.path, extra.path);
  // The root (bwrap's own tmpfs, holding the mount points) read-only: writes go to /tmp or allow_paths only.
  args.push("--remount-ro", "/");
  args.push("--chdir", "/tmp", "--", ...child.argv);
  return args;
}

/**
 * The system libraries, read-only. Where /lib is a symbolic link into /usr (a merged /usr,
 * Debian and Ubuntu today) it stays one in the sandbox: one mount fewer per link, each
 * costing the child's start-up a remount.
 */
function libraryMounts(): string[] {
  const args: string[] = [];
  const linked: [string, string][] = [];
  for (const lib of SYSTEM_LIBRARIES) {
    let target: string | undefined;
    try {
      target = lstatSync(lib).isSymbolicLink() ? readlinkSync(lib) : undefined;
    } catch {
      continue; // not on this host
    }
    const inUsr = target !== undefined && SYSTEM_LIBRARIES.includes(join("/", target));
    if (inUsr) linked.push([target!, lib]);
    else args.push("--ro-bind", lib, lib);
  }
  for (const [target, link] of linked) args.push("--symlink", target, link);
  return args;
}

/** The environment bwrap and so the child start with: what allow_env lets through, and the flag that makes the binary a child. */
export const childEnv = (env: Record<string, string>): Record<string, string> => ({ ...env, LUMA_TOOL_HOST: "1" });

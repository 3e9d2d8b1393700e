/**
 * Whether a process id belongs to a running process on this machine (signal 0 checks
 * without sending anything). EPERM means it exists but belongs to another user: alive.
 * The file store is for processes on one machine, so a pid is meaningful.
 */
export const isProcessAlive = (pid: number): boolean => {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
};

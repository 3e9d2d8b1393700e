// An ES module under strict is loaded by Bun itself, not in the VM context: lint and
// allowlists apply, but it sees the real globals (Buffer is there).
export const esm_globals = () => ({ buffer: typeof Buffer, bun: typeof Bun });
